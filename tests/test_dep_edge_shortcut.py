"""resolve_dep_edges tracks the C++ blocks (where each TaskId is alive) only in a function that
binds a TaskId: without one every edge is a cell's, alive everywhere.

On every example and golden program the pass's output equals the output of the same pass made to
track blocks always; on a shape that binds no TaskId the blocks are not tracked (counted), and on
a program that binds one they are.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES_AND_GOLDEN
from test_carry_shortcuts import TASK_ID_CARRIES, outputs_both_ways, shortcut_calls, small_nested

from nanopass.passes.resolve_dep_edges import ResolveDepEdges

# the shortcut forced off: blocks tracked even when no TaskId is bound
ALWAYS_TRACKING = [(ResolveDepEdges, "untrack_blocks", lambda self: None)]


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=[p.stem for p in EXAMPLES_AND_GOLDEN])
def test_the_shortcut_changes_no_edge(path: Path, monkeypatch):
    monkeypatch.setattr(ResolveDepEdges, "nothing_to_resolve", lambda self, func: False)  # (else no block is visited)
    fast, full = outputs_both_ways(path, "resolve_dep_edges", ResolveDepEdges, ALWAYS_TRACKING)
    assert fast == full


def test_no_task_id_leaves_blocks_untracked(tmp_path, monkeypatch):
    monkeypatch.setattr(ResolveDepEdges, "nothing_to_resolve", lambda self, func: False)  # (else no block is visited)
    assert len(shortcut_calls(monkeypatch, ResolveDepEdges, "untrack_blocks", small_nested(tmp_path))) == 1


def test_a_bound_task_id_tracks_blocks(monkeypatch):
    assert shortcut_calls(monkeypatch, ResolveDepEdges, "untrack_blocks", TASK_ID_CARRIES) == []
