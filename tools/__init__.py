"""Tools for people working on the compiler (installed as ``nanopass.tools``).

The stand-in runtime header (``pto_orchestration_api.h``) that generated code compiles against,
and the semantic checks of issue 7: traces (``trace``), the reference and emission interpreters
(``interpret_ssa``, ``interpret_emission``) over a Python recording runtime (``sim_runtime``,
``cvalues``), the C++ recording runtime and its driver (``recording_runtime.cpp``,
``record_main.cpp``, ``recorder``), the runtime model (``runtime_model``), the hazard checker
(``hazards``), value semantics (``values``), ``nanopass check`` (``check``), the per-stage runs
behind ``--dump-all``'s instance graphs and hazards (``instances``), the program generators
(``gen_programs`` with ``gen_shapes``, and the bounded-exhaustive ``enumerate_programs``), the
checks every generated program must pass (``properties``), the fuzzing tool (``fuzz_deps``) and
the switch for the shapes today's compiler gets wrong (``pending``), the static task graph's
oracle (``task_graph_oracle``) and its sweep over generated programs (``graph_sweep``); besides, the compile-time
benchmark (``bench``) and the README's pictures (``tutorial_images``).
"""
