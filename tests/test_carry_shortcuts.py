"""classify_iter_arg_carry looks for per-iteration TaskId slots and TaskId array shapes only
when a loop carry (an if result) is a TaskId, found in the walk that classifies the carries.

On every example and golden program the pass's output equals the output of the same pass made
to look always; on a shape without TaskId carries the two analyses are not run (counted), and on
a program with them they are.
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


def classified_both_ways(path: Path):
    stages = run_pipeline(load_program(path))
    scoped = stages["materialize_runtime_scopes"].tree
    with reusing_walks():
        return ClassifyIterArgCarry(PassContext()).run(scoped), ClassifyAlwaysLooking(PassContext()).run(scoped)


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_the_shortcut_changes_no_plan(path: Path):
    fast, full = classified_both_ways(path)
    assert fast == full


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
