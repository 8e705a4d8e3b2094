"""classify_iter_arg_carry looks for per-iteration TaskId slots and TaskId array shapes only
when a loop carry (an if result) is a TaskId, found in the walk that classifies the carries; and
without TaskId shapes it plans each carry alone (rebound or not: ``loop_alone``), the loops rebuilt by
that handler.

On every example and golden program the pass's output equals the output of the same pass made
to look always (and to plan carries through their loops always); on a shape without TaskId
carries the two analyses are not run and the carries are planned alone (counted), and on a
program with them they are run and the carries are planned through their loops.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import GOLDEN, EXAMPLES_AND_GOLDEN, bench_file, counting, load_program, pass_runs, run_both_ways, running

from nanopass.api import run_pipeline
from nanopass.passes import classify_iter_arg_carry
from nanopass.passes.classify_iter_arg_carry import ClassifyIterArgCarry

CLASSIFY = "classify_iter_arg_carry"
carries_of = ClassifyIterArgCarry.carries_of

# the shortcut forced off: as if some carry were a TaskId
ALWAYS_LOOKING = [(ClassifyIterArgCarry, "carries_of", lambda self, body: (*carries_of(self, body)[:2], True, True)),
                  (classify_iter_arg_carry, "ONE_WALK", False)]
# the second shortcut forced off: carries planned by their loops' handlers
THROUGH_LOOPS = [(ClassifyIterArgCarry, "plan_carries_alone", lambda self: None)]


def outputs_both_ways(path: Path, pass_name: str, pass_cls: type, forced_off: list):
    """The outputs of ``pass_cls`` on its input in the compile of ``path``, with its shortcut and
    with it ``forced_off`` (patches); the first is the compile's."""
    ((given, compiled),) = pass_runs(path, pass_name, refusals=False)
    fast, full = run_both_ways(running(pass_cls), given, forced_off)
    assert fast == compiled
    return fast, full


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=[p.stem for p in EXAMPLES_AND_GOLDEN])
def test_the_shortcut_changes_no_plan(path: Path):
    fast, full = outputs_both_ways(path, CLASSIFY, ClassifyIterArgCarry, ALWAYS_LOOKING)
    assert fast == full


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=[p.stem for p in EXAMPLES_AND_GOLDEN])
def test_planning_carries_alone_changes_no_plan(path: Path):
    alone, through_loops = outputs_both_ways(path, CLASSIFY, ClassifyIterArgCarry, THROUGH_LOOPS)
    assert alone == through_loops


@pytest.mark.parametrize("shape", ["nested", "scopes", "branches", "mixed"])
def test_planning_carries_alone_changes_no_plan_of_a_shape(tmp_path, shape):
    alone, through_loops = outputs_both_ways(bench_file(tmp_path, shape, 24), CLASSIFY, ClassifyIterArgCarry, THROUGH_LOOPS)
    assert alone == through_loops


def shortcut_calls(monkeypatch, pass_cls: type, shortcut: str, path: Path) -> list:
    """The calls of ``pass_cls``'s method ``shortcut`` in the compile of ``path``."""
    calls = counting(monkeypatch, pass_cls, shortcut)
    run_pipeline(load_program(path))
    return calls


def small_nested(tmp_path) -> Path:
    """A program without TaskIds: the bench's nested loops."""
    return bench_file(tmp_path, "nested", 8)


TASK_ID_CARRIES = GOLDEN / "surface_loop_tid.py"


def test_without_task_id_shapes_carries_are_planned_alone(tmp_path, monkeypatch):
    assert len(shortcut_calls(monkeypatch, ClassifyIterArgCarry, "plan_carries_alone", small_nested(tmp_path))) == 1


def test_task_id_shapes_plan_carries_through_their_loops(monkeypatch):
    assert shortcut_calls(monkeypatch, ClassifyIterArgCarry, "plan_carries_alone", TASK_ID_CARRIES) == []


def test_no_task_id_carry_looks_for_no_slots_and_no_shapes(tmp_path, monkeypatch):
    slots = counting(monkeypatch, classify_iter_arg_carry, "per_iteration_loops")
    shapes = counting(monkeypatch, classify_iter_arg_carry, "TidShapes")
    run_pipeline(load_program(small_nested(tmp_path)))
    assert slots == [] and shapes == []


def test_task_id_carries_are_looked_at(monkeypatch):
    slots = counting(monkeypatch, classify_iter_arg_carry, "per_iteration_loops")
    shapes = counting(monkeypatch, classify_iter_arg_carry, "TidShapes")
    run_pipeline(load_program(TASK_ID_CARRIES))
    assert len(slots) == 1 and len(shapes) == 1


def test_planning_carries_alone_in_a_pass_of_another_source_language(tmp_path):
    # (the loops whose handlers the shortcut drops are the pass's source language's: the pass
    # run again on its own output, tests/test_control_flow.py, reads CARRIED's, and a KeyError on
    # SCOPED's classes followed)
    from test_control_flow import CLASSIFY_AGAIN

    from nanopass.passes.util import iter_stmts

    carried = run_pipeline(load_program(small_nested(tmp_path)), stop_after=CLASSIFY)[-1].tree
    assert any(s._production == "For" for s in iter_stmts(carried.orch.body))
    assert CLASSIFY_AGAIN().run(carried) == carried


# the third shortcut forced off: every loop and branch body visited
BODIES_VISITED = [(ClassifyIterArgCarry, "visit_body", lambda self, body: self.visit_all(body))]


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=[p.stem for p in EXAMPLES_AND_GOLDEN])
def test_keeping_bodies_without_loops_or_ifs_changes_nothing(path: Path):
    kept, visited = outputs_both_ways(path, CLASSIFY, ClassifyIterArgCarry, BODIES_VISITED)
    assert kept == visited


@pytest.mark.parametrize("shape", ["nested", "scopes", "branches", "mixed"])
def test_keeping_bodies_without_loops_or_ifs_changes_nothing_in_a_shape(tmp_path, shape):
    kept, visited = outputs_both_ways(bench_file(tmp_path, shape, 24), CLASSIFY, ClassifyIterArgCarry, BODIES_VISITED)
    assert kept == visited


def test_a_branch_of_one_scope_of_tasks_is_not_visited(tmp_path, monkeypatch):
    # the branches shape: each branch is one compiler scope holding a task and a yield, looked at
    # in place; the bodies visited (the function's, its scope's) are as many for 12 ifs as for 24
    visits = counting(monkeypatch, ClassifyIterArgCarry, "visit_all")
    counts = []
    for size in (24, 48):
        run_pipeline(load_program(bench_file(tmp_path, "branches", size)))
        counts.append(len(visits))
        visits.clear()
    assert counts[0] == counts[1] <= 2
