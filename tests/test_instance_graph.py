"""The instance graph (issue 8): one node per task instance, summarised per submit site beyond
the limit. Instances are made by hand here; the program interpreter will feed the same type."""

from __future__ import annotations

from nanopass.printer.instances import TaskInstance, instance_graph


def chain(count: int, sites: int = 3) -> list[TaskInstance]:
    """``count`` instances cycling over ``sites`` submit sites, each waiting on the one before."""
    out = []
    for i in range(count):
        site = f"t{i % sites}"
        out.append(TaskInstance(i, f"k{i % sites}", site, data=(i - 1,) if i else (), deps=(i - 2,) if i > 1 else ()))
    return out


def test_small_runs_get_one_node_per_instance():
    tasks = [
        TaskInstance(0, "load", "t0", core="AIV"),
        TaskInstance(1, "mm", "t1", data=(0,), core="AIC"),
        TaskInstance(2, "mm", "t1", data=(1,), deps=(0, 99), user=False),  # 99 is no instance: ignored
        TaskInstance(3, "barrier", "b2", deps=(1, 2), barrier=True),
    ]
    result = instance_graph(tasks, limit=10)
    assert not result.summarised and result.instances == 4
    graph = result.graph
    assert list(graph.nodes) == ["i0", "i1", "i2", "i3"]
    assert graph.nodes["i1"].label == "#1 mm" and graph.nodes["i3"].barrier
    assert {(e.src, e.dst, e.kind) for e in graph.edges.values()} == {
        ("i0", "i1", "data"),
        ("i1", "i2", "data"),
        ("i0", "i2", "explicit-compiler"),
        ("i1", "i3", "explicit-user"),
        ("i2", "i3", "explicit-user"),
    }
    dot = graph.to_digraph("run").source
    assert "i0 -> i1" in dot and "style=dashed" in dot and "shape=diamond" in dot


def test_large_runs_are_summarised_per_site_with_counts():
    result = instance_graph(chain(1000), limit=300)
    assert result.summarised and result.instances == 1000 and result.omitted_sites == 0
    graph = result.graph
    assert list(graph.nodes) == ["t0", "t1", "t2"]
    assert graph.nodes["t0"].label == "t0: k0\\n×334"
    counts = {(e.src, e.dst, e.kind): e.count for e in graph.edges.values()}
    assert counts[("t0", "t1", "data")] == counts[("t2", "t0", "data")] == 333
    assert counts[("t0", "t2", "explicit-user")] == 333
    assert "1000 task instances summarised" in graph.to_digraph("run").source
    assert 'label="×333"' in graph.to_digraph("run").source


def test_the_limit_is_inclusive():
    assert not instance_graph(chain(300), limit=300).summarised
    assert instance_graph(chain(301), limit=300).summarised


def test_too_many_sites_are_cut_with_a_note():
    result = instance_graph(chain(50, sites=50), limit=10)
    assert result.summarised and result.omitted_sites == 40
    graph = result.graph
    assert len(graph.nodes) == 11 and graph.nodes["omitted"].label == "… 40 more submit sites"
    assert all(e.src != "omitted" and e.dst != "omitted" for e in graph.edges.values())
    assert all(int(e.src[1:]) < 10 and int(e.dst[1:]) < 10 for e in graph.edges.values())
