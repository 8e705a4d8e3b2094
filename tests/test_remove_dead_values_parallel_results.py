"""remove_dead_values: a TaskId carried through a ``pl.parallel`` loop in a manual scope is two
values (each iteration reads the init; the result, an array, holds every iteration's id). When
nothing reads the result the carry goes: no ``PTO2TaskId ..__rv_..[N]`` array is declared, filled
and stored to, and the iteration reads the init's name in the iter_arg's place. A result read
after the loop keeps its array."""

from __future__ import annotations

from conftest import EXAMPLES, FOUND, GOLDEN, bench_file, load_program

from nanopass.api import generate_orchestration, run_pipeline
from nanopass.languages.statements import iter_stmts
from nanopass.tools.properties import Findings, check_text

CLASS6 = FOUND / "class6_taskid_through_two_parallel_loops.py"


def cpp_of(path) -> str:
    return generate_orchestration(load_program(path)).code


def checked(text: str, runs: list[dict[str, str]]) -> None:
    """The checks every generated program passes (values at every stage, hazards): none fails."""
    failures = check_text(text, runs, Findings())
    assert failures == [], "\n".join(f"{f.kind}: {f.message}" for f in failures)


def test_the_scopes_shape_declares_no_result_array_and_each_iteration_waits_on_the_init(tmp_path):
    path = bench_file(tmp_path, "scopes", 8)
    cpp = cpp_of(path)
    assert "__rv_" not in cpp and "__init_i" not in cpp
    assert "if (prev.is_valid()) params_t0_deps[params_t0_deps_count++] = prev;" in cpp
    stages = run_pipeline(load_program(path))
    out = stages["remove_dead_values"].tree.orch.body
    loops = [s for s in iter_stmts(out) if s._production == "For" and s.kind.name == "parallel"]
    assert loops and all(it.var.type._production == "TensorType" for loop in loops for it in loop.iters)
    before = stages["split_joins_by_iteration"].tree.orch.body  # (its input carried the TaskId through each loop)
    assert any(it.var.type._production == "ScalarType" for s in iter_stmts(before) if s._production == "For" for it in s.iters)
    checked(path.read_text(), [{"n": "3"}])


def test_a_found_program_loses_only_the_unread_array():
    cpp = cpp_of(CLASS6)
    assert "c__rv_v5" not in cpp  # the second loop's result: nothing reads it
    assert "if (c__rv_v2[slot].is_valid())" in cpp  # the first's is read (the second loop's init, each iteration)
    checked(CLASS6.read_text(), [{"n": "1"}])


def test_results_read_after_the_loop_keep_their_arrays():
    for path in (EXAMPLES / "manual_phases.py", GOLDEN / "tid_sources.py", GOLDEN / "surface_loop_tid.py"):
        assert "PTO2TaskId" in cpp_of(path) and "__rv_" in cpp_of(path), path.name
