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
from test_carry_shortcuts import outputs_both_ways
from test_middle_pass_shortcuts import counting

from nanopass.api import run_pipeline
from nanopass.passes.resolve_dep_edges import ResolveDepEdges
from nanopass.tools.bench import source_of

PROGRAMS = sorted(p for d in (EXAMPLES, REPO / "tests" / "golden") for p in d.glob("*.py"))


class ResolveAlwaysTracking(ResolveDepEdges):
    """The pass with the shortcut forced off: blocks tracked even when no TaskId is bound."""

    def untrack_blocks(self) -> None:
        pass


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_the_shortcut_changes_no_edge(path: Path):
    fast, full = outputs_both_ways(path, "bind_task_ids", ResolveDepEdges, ResolveAlwaysTracking)
    assert fast == full


def test_no_task_id_leaves_blocks_untracked(tmp_path, monkeypatch):
    untracked = counting(monkeypatch, ResolveDepEdges, "untrack_blocks")
    path = tmp_path / "nested.py"
    path.write_text(source_of("nested", 8))
    run_pipeline(load_program(path))
    assert len(untracked) == 1


def test_a_bound_task_id_tracks_blocks(monkeypatch):
    untracked = counting(monkeypatch, ResolveDepEdges, "untrack_blocks")
    run_pipeline(load_program(REPO / "tests" / "golden" / "surface_loop_tid.py"))
    assert untracked == []
