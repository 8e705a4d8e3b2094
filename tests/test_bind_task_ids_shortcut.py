"""bind_task_ids walks a function's body only when some statement binds a TaskId
(``binds_task_ids``, a scan of the body's kept walk): on every example and golden program and on
the bench shapes its output equals the output of the same pass made to walk always, and on shapes
without TaskIds the body is not walked (counted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES, REPO, load_program
from test_middle_pass_shortcuts import counting

from nanopass.api import run_pipeline
from nanopass.languages.statements import reusing_walks
from nanopass.passes import bind_task_ids
from nanopass.passes.bind_task_ids import BindTaskIds
from nanopass.rewrite import PassContext
from nanopass.tools.bench import source_of

PROGRAMS = sorted(p for d in (EXAMPLES, REPO / "tests" / "golden") for p in d.glob("*.py"))
SHAPES = ["straight", "nested", "mixed", "scopes", "branches", "tiles", "assembles", "reuses"]


def bound_both_ways(path: Path):
    """The pass's output on its input in the compile of ``path``, with the shortcut and with the
    body walked always."""
    stages = run_pipeline(load_program(path))
    tree = stages["classify_tensors"].tree
    with reusing_walks():
        fast = BindTaskIds(PassContext()).run(tree)
    with pytest.MonkeyPatch.context() as patch, reusing_walks():
        patch.setattr(bind_task_ids, "binds_task_ids", lambda body: True)
        full = BindTaskIds(PassContext()).run(tree)
    assert fast == stages["bind_task_ids"].tree
    return fast, full


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_the_shortcut_changes_no_binding(path: Path):
    fast, full = bound_both_ways(path)
    assert fast == full


@pytest.mark.parametrize("shape", SHAPES)
def test_the_shortcut_changes_no_binding_of_a_shape(tmp_path, shape):
    path = tmp_path / f"{shape}.py"
    path.write_text(source_of(shape, 24))
    fast, full = bound_both_ways(path)
    assert fast == full


@pytest.mark.parametrize("shape, walked", [("straight", False), ("nested", False), ("scopes", True)])
def test_a_body_without_task_ids_is_not_walked(tmp_path, monkeypatch, shape, walked):
    # straight and nested submit tasks that no dependency names (no TaskId is bound); the scopes
    # shape orders its loops' tasks through TaskIds
    bodies = counting(monkeypatch, BindTaskIds, "body")
    path = tmp_path / f"{shape}.py"
    path.write_text(source_of(shape, 8))
    stages = run_pipeline(load_program(path))
    assert bool(bodies) is walked
    assert bool(stages["bind_task_ids"].tree.orch.tids) is walked
