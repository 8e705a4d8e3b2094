"""Tools for people working on the compiler (installed as ``nanopass.tools``).

The stand-in runtime header (``pto_orchestration_api.h``) that generated code compiles against,
and the semantic checks of issue 7: traces (``trace``), the reference and emission interpreters
(``interpret_ssa``, ``interpret_emission``) over a Python recording runtime (``sim_runtime``,
``cvalues``), the C++ recording runtime and its driver (``recording_runtime.cpp``,
``record_main.cpp``, ``recorder``), the runtime model (``runtime_model``), the hazard checker
(``hazards``), ``nanopass check`` (``check``), the per-stage runs behind ``--dump-all``'s
instance graphs and hazards (``instances``), and the program generator and fuzzing tool
(``gen_programs``, ``fuzz_deps``); besides, the compile-time benchmark (``bench``) and the
README's pictures (``tutorial_images``).
"""
