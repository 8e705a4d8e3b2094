"""resolve_dep_edges tracks the C++ blocks (where each TaskId is alive) only in a function that
binds a TaskId: without one every edge is a cell's, alive everywhere.

On every example and golden program the pass's output equals the output of the same pass made to
track blocks always; on a shape that binds no TaskId the blocks are not tracked (counted), and on
a program that binds one they are.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES, REPO, load_program

from nanopass.api import run_pipeline
from nanopass.languages.statements import reusing_walks
from nanopass.passes.resolve_dep_edges import ResolveDepEdges
from nanopass.rewrite import PassContext
from nanopass.tools.bench import source_of

PROGRAMS = sorted(p for d in (EXAMPLES, REPO / "tests" / "golden") for p in d.glob("*.py"))


class ResolveAlwaysTracking(ResolveDepEdges):
    """The pass with the shortcut forced off: blocks tracked even when no TaskId is bound."""

    def untrack_blocks(self) -> None:
        pass


class ResolveCounting(ResolveDepEdges):
    """The pass, recording each function whose blocks it leaves untracked."""

    untracked: list = []

    def untrack_blocks(self) -> None:
        self.untracked.append(self)
        super().untrack_blocks()


def resolved_both_ways(path: Path):
    stages = run_pipeline(load_program(path))
    bound = stages["bind_task_ids"].tree
    with reusing_walks():
        return ResolveDepEdges(PassContext()).run(bound), ResolveAlwaysTracking(PassContext()).run(bound)


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_the_shortcut_changes_no_edge(path: Path):
    fast, full = resolved_both_ways(path)
    assert fast == full


def untracked_in(path: Path, monkeypatch) -> list:
    ResolveCounting.untracked = []
    bound = run_pipeline(load_program(path))["bind_task_ids"].tree
    ResolveCounting(PassContext()).run(bound)
    return ResolveCounting.untracked


def test_no_task_id_leaves_blocks_untracked(tmp_path, monkeypatch):
    path = tmp_path / "nested.py"
    path.write_text(source_of("nested", 8))
    assert len(untracked_in(path, monkeypatch)) == 1


def test_a_bound_task_id_tracks_blocks(monkeypatch):
    assert untracked_in(REPO / "tests" / "golden" / "surface_loop_tid.py", monkeypatch) == []
