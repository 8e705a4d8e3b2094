"""The static task graph at size (printer/dot.py's MERGED_WRITERS): a buffer that many submit sites
may have written last, after an if or a loop that may run no iteration, is drawn through a merge
node, so that a chain of such statements draws edges linear in its length (it drew one from every
writer to every later reader: a thousand optional writers of one buffer, 500,000 edges), and every
task still reaches the same tasks as with an edge from each writer."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES, PROGRAMS, load_program

from nanopass.printer import dot
from nanopass.printer.dot import static_graph
from nanopass.tools.bench import source_of


def _graph(tmp_path, source: str, name: str = "prog"):
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    return static_graph(load_program(path).surface())


def _reach(graph) -> dict[str, set[str]]:
    """Each task node -> the task nodes a path of edges leads to (through merge nodes too)."""
    succ: dict[str, set[str]] = {n: set() for n in graph.nodes}
    for edge in graph.edges.values():
        succ[edge.src].add(edge.dst)
    out = {}
    for start, node in graph.nodes.items():
        if node.merge:
            continue
        seen, todo = set(), [start]
        while todo:
            for nxt in succ[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        out[start] = {n for n in seen if not graph.nodes[n].merge}
    return out


def test_a_chain_of_optional_writers_draws_edges_linear_in_its_length(tmp_path):
    small = _graph(tmp_path, source_of("mixed", 200), "small")
    large = _graph(tmp_path, source_of("mixed", 400), "large")
    assert any(n.merge for n in large.nodes.values())
    assert len(large.edges) <= 2.2 * len(small.edges), (len(small.edges), len(large.edges))
    # each reader has at most MERGED_WRITERS + a few data edges in (was: one per earlier optional writer)
    fan_in: dict[str, int] = {}
    for edge in large.edges.values():
        fan_in[edge.dst] = fan_in.get(edge.dst, 0) + 1
    assert max(fan_in.values()) <= 2 * dot.MERGED_WRITERS + 4


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")) + sorted(PROGRAMS.glob("*.py"))[:40],
                         ids=lambda p: p.stem)
def test_merge_nodes_keep_what_each_task_reaches(monkeypatch, path):
    # merging from two writers on (every if or optional loop that leaves a choice) against never
    program = load_program(path)
    tree = program.surface()
    monkeypatch.setattr(dot, "MERGED_WRITERS", 10 ** 9)
    whole = static_graph(tree)
    monkeypatch.setattr(dot, "MERGED_WRITERS", 1)
    merged = static_graph(tree)
    assert _reach(merged) == _reach(whole)


def test_merge_nodes_keep_what_each_task_reaches_on_the_mixed_shape(monkeypatch, tmp_path):
    path = tmp_path / "mixed.py"
    path.write_text(source_of("mixed", 60))
    tree = load_program(path).surface()
    monkeypatch.setattr(dot, "MERGED_WRITERS", 10 ** 9)
    whole = static_graph(tree)
    monkeypatch.setattr(dot, "MERGED_WRITERS", 2)
    merged = static_graph(tree)
    assert any(n.merge for n in merged.nodes.values()) and len(merged.edges) < len(whole.edges)
    assert _reach(merged) == _reach(whole)
