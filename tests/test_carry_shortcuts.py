"""classify_iter_arg_carry looks for per-iteration TaskId slots and TaskId array shapes only
when a loop carry (an if result) is a TaskId, found in the walk that classifies the carries; and
without TaskId shapes it plans each carry alone (``IterArg``), the loops rebuilt by their
identity clauses.

On every example and golden program the pass's output equals the output of the same pass made
to look always (and to plan carries through their loops always); on a shape without TaskId
carries the two analyses are not run and the carries are planned alone (counted), and on a
program with them they are run and the carries are planned through their loops.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES, REPO, load_program
from test_middle_pass_shortcuts import counting

from nanopass.api import run_pipeline
from nanopass.languages.statements import reusing_walks
from nanopass.passes import classify_iter_arg_carry
from nanopass.passes.classify_iter_arg_carry import ClassifyIterArgCarry
from nanopass.rewrite import PassContext
from nanopass.tools.bench import source_of

PROGRAMS = sorted(p for d in (EXAMPLES, REPO / "tests" / "golden") for p in d.glob("*.py"))


class ClassifyAlwaysLooking(ClassifyIterArgCarry):
    """The pass with the shortcut forced off: as if some carry were a TaskId."""

    def carries_of(self, body):
        rebound, candidates, _, _ = super().carries_of(body)
        return rebound, candidates, True, True


class ClassifyThroughLoops(ClassifyIterArgCarry):
    """The pass with the second shortcut forced off: carries planned by their loops' handlers."""

    def plan_carries_alone(self) -> None:
        pass


def outputs_both_ways(path: Path, stage: str, fast: type, full: type):
    """The outputs of two versions of a pass (``fast``, ``full``) on the tree of ``stage`` in the
    compile of ``path``."""
    tree = run_pipeline(load_program(path))[stage].tree
    with reusing_walks():
        return fast(PassContext()).run(tree), full(PassContext()).run(tree)


def classified_both_ways(path: Path):
    return outputs_both_ways(path, "materialize_runtime_scopes", ClassifyIterArgCarry, ClassifyAlwaysLooking)


def planned_through_loops(path: Path):
    return outputs_both_ways(path, "materialize_runtime_scopes", ClassifyIterArgCarry, ClassifyThroughLoops)


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_the_shortcut_changes_no_plan(path: Path):
    fast, full = classified_both_ways(path)
    assert fast == full


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_planning_carries_alone_changes_no_plan(path: Path):
    alone, through_loops = planned_through_loops(path)
    assert alone == through_loops


@pytest.mark.parametrize("shape", ["nested", "scopes", "branches", "mixed"])
def test_planning_carries_alone_changes_no_plan_of_a_shape(tmp_path, shape):
    path = tmp_path / f"{shape}.py"
    path.write_text(source_of(shape, 24))
    alone, through_loops = planned_through_loops(path)
    assert alone == through_loops


def shortcut_calls(monkeypatch, pass_cls: type, shortcut: str, path: Path) -> list:
    """The calls of ``pass_cls``'s method ``shortcut`` in the compile of ``path``."""
    calls = counting(monkeypatch, pass_cls, shortcut)
    run_pipeline(load_program(path))
    return calls


def small_nested(tmp_path) -> Path:
    """A program without TaskIds: the bench's nested loops."""
    path = tmp_path / "nested.py"
    path.write_text(source_of("nested", 8))
    return path


TASK_ID_CARRIES = REPO / "tests" / "golden" / "surface_loop_tid.py"


def test_without_task_id_shapes_carries_are_planned_alone(tmp_path, monkeypatch):
    assert len(shortcut_calls(monkeypatch, ClassifyIterArgCarry, "plan_carries_alone", small_nested(tmp_path))) == 1


def test_task_id_shapes_plan_carries_through_their_loops(monkeypatch):
    assert shortcut_calls(monkeypatch, ClassifyIterArgCarry, "plan_carries_alone", TASK_ID_CARRIES) == []


def test_no_task_id_carry_looks_for_no_slots_and_no_shapes(tmp_path, monkeypatch):
    slots = counting(monkeypatch, classify_iter_arg_carry, "per_iteration_loops")
    shapes = counting(monkeypatch, classify_iter_arg_carry, "TidShapes")
    path = tmp_path / "nested.py"
    path.write_text(source_of("nested", 8))
    run_pipeline(load_program(path))
    assert slots == [] and shapes == []


def test_task_id_carries_are_looked_at(monkeypatch):
    slots = counting(monkeypatch, classify_iter_arg_carry, "per_iteration_loops")
    shapes = counting(monkeypatch, classify_iter_arg_carry, "TidShapes")
    run_pipeline(load_program(REPO / "tests" / "golden" / "surface_loop_tid.py"))
    assert len(slots) == 1 and len(shapes) == 1


def test_planning_carries_alone_in_a_pass_of_another_source_language(tmp_path):
    # (the loops whose handlers the shortcut drops are the pass's source language's: the pass
    # run again on its own output, tests/test_control_flow.py, reads CARRIED's, and a KeyError on
    # SCOPED's classes followed)
    from test_control_flow import CLASSIFY_AGAIN

    carried = run_pipeline(load_program(small_nested(tmp_path)), stop_after="classify_iter_arg_carry")[-1].tree
    from nanopass.passes.util import iter_stmts

    assert any(s._production == "For" for s in iter_stmts(carried.orch.body))
    assert CLASSIFY_AGAIN().run(carried) == carried
