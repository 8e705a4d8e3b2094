"""The static task graph at size (printer/dot.py's MERGED_WRITERS): a buffer that many submit sites
may have written last, after an if or a loop that may run no iteration, or after a write that
may replace no writer (through a view of rows not known, or to a name that may be several
views), is drawn through a merge node, so that a chain of such statements draws edges linear in
its length (it drew one from every writer to every later reader: a thousand optional writers of
one buffer, 500,000 edges), and every task still reaches the same tasks as with an edge from
each writer."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES, PROGRAMS, load_program

from nanopass.printer import dot
from nanopass.printer.dot import static_graph
from nanopass.tools.bench import source_of
from nanopass.tools.task_graph_oracle import violations
from test_task_graph_oracle import _program, assert_shown, compiled


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


_NUMBERED = """
import sys
from nanopass.loader import load_programs
from nanopass.printer import dot
dot.MERGED_WRITERS = 1
sys.stdout.write(dot.to_dot(load_programs(sys.argv[1])[0].surface()))
"""


def test_merge_nodes_are_numbered_alike_whatever_the_string_hashes(tmp_path):
    # several buffers get a merge node after one if: they are numbered in the buffers' order, which
    # was a set's (so by the hashes of the names, which change from process to process)
    import os
    import subprocess
    import sys

    path = tmp_path / "mixed.py"
    path.write_text(source_of("mixed", 60))
    texts = []
    for seed in ("1", "2", "3"):
        done = subprocess.run([sys.executable, "-c", _NUMBERED, str(path)], capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}, check=True)
        texts.append(done.stdout)
    assert texts[0].count("writers") > 2  # (merge nodes drawn)
    assert texts[0] == texts[1] == texts[2]


def _flow_work(monkeypatch, tmp_path, size: int) -> int:
    """The flow entries the walk of the mixed shape's program at ``size`` builds: those each flow
    opened on another starts with, and the keys each join or absorb visits."""
    work = [0]
    opened, keys = dot._Flow.opened, dot._keys

    def counted_opened(flow, merged=None):
        work[0] += sum(map(len, merged or ()))
        return opened(flow, merged)

    def counted_keys(*flows):
        out = keys(*flows)
        work[0] += sum(map(len, out))
        return out

    monkeypatch.setattr(dot._Flow, "opened", counted_opened)
    monkeypatch.setattr(dot, "_keys", counted_keys)
    path = tmp_path / f"mixed{size}.py"
    path.write_text(source_of("mixed", size))
    static_graph(load_program(path).surface())
    monkeypatch.undo()
    return work[0]


def test_the_walk_does_work_linear_in_the_program(monkeypatch, tmp_path):
    # the mixed shape binds N / 2 tensors, then walks N / 2 ifs and loops: copying the flow's maps
    # at each made the walk quadratic (52 s a stage at N = 16000); a flow is opened on the one before it
    # and a join visits only what the flows it joins wrote
    small, large = _flow_work(monkeypatch, tmp_path, 400), _flow_work(monkeypatch, tmp_path, 1600)
    assert small > 0
    assert large <= 4.4 * small, (small, large)


def weak_writes(kind: str, count: int) -> str:
    """A program of ``count`` writes of parts of ``big`` that replace no writer, then ``count``
    tasks that read such a part: ``part``, slices at row ``n``; ``either``, a name an if binds to
    one of two slices."""
    if kind == "part":
        body = [line for k in range(count) for line in (f"w{k} = pl.tensor.slice(big, [8, 8], [n, 0])",
                                                        f"w{k} = self.k_copy(x, w{k})")]
        body += [line for k in range(count) for line in (f"r{k} = pl.tensor.slice(big, [8, 8], [n, 0])",
                                                         f"y = self.k_acc(r{k}, y)")]
    else:
        body = ["if n > 0:", "    v = pl.tensor.slice(big, [8, 8], [0, 0])", "else:",
                "    v = pl.tensor.slice(big, [8, 8], [8, 0])"]
        body += ["v = self.k_copy(x, v)"] * count + ["y = self.k_acc(v, y)"] * count
    return _program("\n".join(body + ["return y"]))


@pytest.mark.parametrize("kind", ["part", "either"])
def test_writes_that_replace_no_writer_draw_edges_linear_in_their_count(tmp_path, kind):
    # every reader read every writer: 48 writes and readers drew 2,351 edges, 96 drew 9,311 (now 476
    # and 962 for slices at row n, 294 and 594 for a name of two slices)
    small = _graph(tmp_path, weak_writes(kind, 48), "small")
    large = _graph(tmp_path, weak_writes(kind, 96), "large")
    assert any(n.merge for n in large.nodes.values())
    assert len(large.edges) <= 2.2 * len(small.edges), (len(small.edges), len(large.edges))
    fan_in: dict[str, int] = {}
    for edge in large.edges.values():
        fan_in[edge.dst] = fan_in.get(edge.dst, 0) + 1
    assert max(fan_in.values()) <= dot.MERGED_WRITERS + 4


@pytest.mark.parametrize("kind", ["part", "either"])
def test_merge_nodes_after_writes_keep_what_each_task_reaches(monkeypatch, tmp_path, kind):
    tree = load_program(_write(tmp_path, weak_writes(kind, 20))).surface()
    monkeypatch.setattr(dot, "MERGED_WRITERS", 10 ** 9)
    whole = static_graph(tree)
    merged = {}
    for setting in (1, 8):
        monkeypatch.setattr(dot, "MERGED_WRITERS", setting)
        merged[setting] = static_graph(tree)
        assert any(n.merge for n in merged[setting].nodes.values())
        assert _reach(merged[setting]) == _reach(whole)


@pytest.mark.parametrize("kind", ["part", "either"])
def test_merge_nodes_after_writes_show_every_ordering_the_runs_need(kind):
    # the oracle walks through merge nodes: 10 writes leave more than MERGED_WRITERS (8) writers
    stages, program, options = compiled(weak_writes(kind, 10))
    assert any(n.merge for n in static_graph(stages[0].tree).nodes.values())
    assert_shown(violations(stages, program, [{"n": "0"}, {"n": "2"}], options))


def test_merge_nodes_after_writes_are_numbered_alike_whatever_the_string_hashes(tmp_path):
    # a write to a name that may be two views merges each buffer it leaves wide: in the buffers'
    # order, not the order of a set of views
    import os
    import subprocess
    import sys

    body = ["if n > 0:", "    v = pl.tensor.slice(big, [8, 8], [0, 0])", "else:", "    v = z"]
    body += ["v = self.k_copy(x, v)"] * 4 + ["y = self.k_acc(v, y)", "return y"]
    path = _write(tmp_path, _program("\n".join(body), ", z: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]"))
    texts = []
    for seed in ("1", "2", "3"):
        done = subprocess.run([sys.executable, "-c", _NUMBERED, str(path)], capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}, check=True)
        texts.append(done.stdout)
    assert texts[0].count("writers") > 2  # (merge nodes drawn)
    assert texts[0] == texts[1] == texts[2]


def _write(tmp_path, source: str):
    path = tmp_path / "weak.py"
    path.write_text(source)
    return path
