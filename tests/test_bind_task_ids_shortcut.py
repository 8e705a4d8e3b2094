"""bind_task_ids walks a function's body only when some statement binds a TaskId
(``binds_task_ids``, a scan of the body's kept walk): on every example and golden program and on
the bench shapes its output equals the output of the same pass made to walk always, and on shapes
without TaskIds the body is not walked (counted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES_AND_GOLDEN, SHAPES, bench_file, counting, load_program, pass_runs, run_both_ways, running

from nanopass.api import run_pipeline
from nanopass.passes import bind_task_ids
from nanopass.passes.bind_task_ids import BindTaskIds


def bound_both_ways(path: Path):
    """The pass's output on its input in the compile of ``path``, with the shortcut and with the
    body walked always."""
    ((given, compiled),) = pass_runs(path, "bind_task_ids", refusals=False)
    fast, full = run_both_ways(running(BindTaskIds), given, [(bind_task_ids, "binds_task_ids", lambda body: True)])
    assert fast == compiled
    return fast, full


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=[p.stem for p in EXAMPLES_AND_GOLDEN])
def test_the_shortcut_changes_no_binding(path: Path):
    fast, full = bound_both_ways(path)
    assert fast == full


@pytest.mark.parametrize("shape", SHAPES)
def test_the_shortcut_changes_no_binding_of_a_shape(tmp_path, shape):
    fast, full = bound_both_ways(bench_file(tmp_path, shape, 24))
    assert fast == full


@pytest.mark.parametrize("shape, walked", [("straight", False), ("nested", False), ("scopes", True)])
def test_a_body_without_task_ids_is_not_walked(tmp_path, monkeypatch, shape, walked):
    # straight and nested submit tasks that no dependency names (no TaskId is bound); the scopes
    # shape orders its loops' tasks through TaskIds
    bodies = counting(monkeypatch, BindTaskIds, "body")
    stages = run_pipeline(load_program(bench_file(tmp_path, shape, 8)))
    assert bool(bodies) is walked
    assert bool(stages["bind_task_ids"].tree.orch.tids) is walked
