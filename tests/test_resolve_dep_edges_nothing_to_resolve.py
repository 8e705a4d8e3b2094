"""resolve_dep_edges returns a function that binds no TaskId and has no dependency as it is
(``nothing_to_resolve``, read from the body's walk), without visiting it.

Both ways: the pass's output with the shortcut forced off equals its output with it, on every
example, golden program, bench shape and random program (AUTO and manual), and on a function
without TaskIds whose task waits on a cell (made by hand: the shortcut is asked, and declines).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import EXAMPLES_AND_GOLDEN, SHAPES, bench_file, counting, load_program, random_file, run_both_ways, running
from test_carry_shortcuts import outputs_both_ways
from test_dep_annotated_statement_kinds import replaced

from nanopass.api import run_pipeline
from nanopass.languages import TID_BOUND
from nanopass.languages.statements import iter_stmts
from nanopass.passes.resolve_dep_edges import ResolveDepEdges

FORCED_OFF = [(ResolveDepEdges, "nothing_to_resolve", lambda self, func: False)]


def same_both_ways(path: Path) -> None:
    fast, full = outputs_both_ways(path, "resolve_dep_edges", ResolveDepEdges, FORCED_OFF)
    assert fast == full


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=[p.stem for p in EXAMPLES_AND_GOLDEN])
def test_every_example_and_golden_program(path: Path):
    same_both_ways(path)


@pytest.mark.parametrize("shape", SHAPES)
def test_every_bench_shape(tmp_path, shape):
    same_both_ways(bench_file(tmp_path, shape, 24))


@pytest.mark.parametrize("manual", [False, True])
def test_random_programs(tmp_path, manual):
    compiled = 0
    for seed in range(40, 70):
        path = random_file(tmp_path, seed, manual=manual)
        try:
            run_pipeline(load_program(path))
        except Exception:  # (a program the compiler refuses: no resolve_dep_edges to compare)
            continue
        same_both_ways(path)
        compiled += 1
    assert compiled >= 20


def test_a_function_without_dependencies_is_its_own_output(tmp_path, monkeypatch):
    calls = counting(monkeypatch, ResolveDepEdges, "nothing_to_resolve")
    stages = run_pipeline(load_program(bench_file(tmp_path, "nested", 8)))
    assert len(calls) == 1
    assert stages["resolve_dep_edges"].tree is stages["bind_task_ids"].tree


def with_a_cell_dependency(tree):
    """``tree`` (tid-bound, no TaskId bound) with its first task waiting on a cell."""
    task = next(s for s in iter_stmts(tree.orch.body) if s._production == "Task")
    return replaced(tree, task, [task.replace(deps=(TID_BOUND.CellDep("cell0"),))])


def test_a_function_without_task_ids_but_with_a_cell_dependency_is_resolved(tmp_path, monkeypatch):
    stages = run_pipeline(load_program(bench_file(tmp_path, "nested", 8)))
    tree = with_a_cell_dependency(stages["bind_task_ids"].tree)
    assert not tree.orch.tids
    calls = counting(monkeypatch, ResolveDepEdges, "nothing_to_resolve")
    fast, full = run_both_ways(running(ResolveDepEdges), tree, FORCED_OFF)
    assert len(calls) == 1 and fast == full
    edges = [dep for s in iter_stmts(fast.orch.body) if s._production == "Task" for dep in s.deps]
    assert [(edge._production, edge.tid.name) for edge in edges] == [("DepEdge", "cell0")]
