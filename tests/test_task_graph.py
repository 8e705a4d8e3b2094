"""The static task graph (issue 8): one node per submit site at every stage, clusters, data and
explicit edges with their authors, guards, array sizes and loop carries."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import EXAMPLES, PROGRAMS, load_program

from nanopass.api import run_pipeline
from nanopass.language import walk
from nanopass.languages import ALL, DIRECTED
from nanopass.printer.dot import static_graph, to_dot
from nanopass.printer.graph import GraphEdge
from nanopass.strategies import trees
from nanopass.text import parse, unparse

SOURCES = sorted(EXAMPLES.glob("*.py")) + sorted(PROGRAMS.glob("*.py"))


def stages_of(path):
    return run_pipeline(load_program(path))


def submit_sites(tree) -> int:
    kinds = ("Submit", "GuardedDummy") if tree._production == "Unit" else ("Task", "Dummy", "HostFence")
    return sum(1 for node in walk(tree) if node._production in kinds)


def edges(graph, kind_prefix=""):
    """{(src, dst, label, guarded, carried)} of the edges whose kind starts with ``kind_prefix``."""
    return {
        (e.src, e.dst, e.label, e.guarded, e.carried) for e in graph.edges.values() if e.kind.startswith(kind_prefix)
    }


def explicit_pairs(graph):
    return {(e.src, e.dst) for e in graph.edges.values() if e.kind.startswith("explicit")}


@pytest.mark.parametrize("path", SOURCES, ids=[p.stem for p in SOURCES])
def test_one_node_per_submit_site_at_every_stage(path):
    for stage in stages_of(path):
        graph = static_graph(stage.tree)
        assert len(graph.nodes) == submit_sites(stage.tree), stage.name
        for prefix in "tb":  # tasks and barriers each numbered in program order
            numbers = [int(n[1:]) for n in graph.nodes if n[0] == prefix]
            assert numbers == list(range(len(numbers))), "nodes follow program order"
        assert all(e.src in graph.nodes and e.dst in graph.nodes for e in graph.edges.values())
        assert to_dot(stage.tree, stage.name) == to_dot(stage.tree, stage.name)  # deterministic


@pytest.mark.parametrize("path", SOURCES, ids=[p.stem for p in SOURCES])
def test_explicit_edges_survive_lowering_to_emission(path):
    """The C++ inserts exactly the explicit edges the dep-annotated program resolved."""
    stages = {s.language.name: s for s in stages_of(path)}
    resolved = static_graph(stages["dep-annotated"].tree)
    emitted = static_graph(stages["emission"].tree)
    assert explicit_pairs(resolved) == explicit_pairs(emitted)
    assert {(e.src, e.dst) for e in resolved.edges.values() if e.kind.startswith("data")} == {
        (e.src, e.dst) for e in emitted.edges.values() if e.kind.startswith("data")
    }


def test_manual_phases_array_carry_is_one_guarded_self_edge():
    stages = {s.language.name: s for s in stages_of(EXAMPLES / "manual_phases.py")}
    surface = static_graph(stages["surface"].tree)
    assert edges(surface, "explicit") == {("t0", "t0", "prev_tid", False, True)}
    resolved = static_graph(stages["dep-annotated"].tree)
    assert list(resolved.nodes) == ["t0"]
    assert edges(resolved, "explicit-user") == {("t0", "t0", "prev_tid[4]", True, True)}
    # the InOut writes of `out` in a MANUAL scope are data edges the runtime does not track
    assert edges(resolved, "data-untracked") == {("t0", "t0", "out", False, True)}
    labels = [c.label for c in resolved.clusters.values()]
    assert labels == ["AUTO scope (compiler)", "MANUAL scope (user)", "pl.range phase", "pl.parallel branch"]
    dot = to_dot(stages["dep-annotated"].tree)
    assert 'label="↻ prev_tid[4]?"' in dot and "arrowhead=empty" in dot and "headport=nw" in dot


def test_loop_scalar_data_edges_follow_branches():
    stages = {s.language.name: s for s in stages_of(EXAMPLES / "loop_scalar.py")}
    graph = static_graph(stages["directed"].tree)
    # t0 accumulates in a loop (carried), t1 (then) reads the result, t2 (else) reads x only
    assert edges(graph, "data") == {("t0", "t0", "acc", False, True), ("t0", "t1", "acc", False, False)}
    assert [c.label for c in graph.clusters.values()] == ["pl.range i", "if then", "if else"]


def test_graph_features_edges():
    stages = {s.language.name: s for s in stages_of(PROGRAMS / "graph_features.py")}
    graph = static_graph(stages["dep-annotated"].tree)
    assert graph.nodes["b0"].barrier and graph.nodes["t1"].core == "AIC" and graph.nodes["t0"].core == "AIV"
    assert edges(graph, "explicit-user") == {
        ("t2", "b0", "ids[2]", True, False),  # a whole TaskId array: guarded slots
        ("b0", "t3", "gate", True, False),  # a barrier's id may be invalid
        ("t3", "t3", "last", True, True),  # a scalar TaskId carry, around the loop
        ("t3", "t4", "last", True, False),
        ("t2", "t4", "ids[0]", True, False),  # one slot
        ("t4", "t6", "fin", True, False),  # an if result: either branch's task
        ("t5", "t6", "fin", True, False),
    }
    assert ("t0", "t1", "tmp", False, False) in edges(graph, "data")  # AUTO scope: tracked
    assert ("t1", "t2", "acc", False, False) in edges(graph, "data-untracked")  # into the MANUAL scope
    # pl.parallel(2) runs at least once, so after it only t2 may have written acc last
    assert ("t1", "t3", "acc", False, False) not in edges(graph, "data-untracked")


def test_compiler_derived_edges_are_styled_apart():
    stages = {s.language.name: s for s in stages_of(PROGRAMS / "graph_features.py")}
    text = unparse(stages["directed"].tree)
    assert "(DepVar (Var fin__phi_v2))" in text
    derived = parse(DIRECTED, text.replace("(DepVar (Var fin__phi_v2))", "(DerivedDep (Var fin__phi_v2))"))
    graph = static_graph(derived)
    assert ("t4", "t6", "fin", False, False) in edges(graph, "explicit-compiler")
    assert ("t4", "t6", "fin", False, False) not in edges(graph, "explicit-user")
    assert "bold,dashed" in graph.to_digraph("g").source


@pytest.mark.parametrize("language", [lang for lang in ALL], ids=[lang.name for lang in ALL])
def test_any_well_formed_tree_has_a_graph(language):
    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(trees(language, depth=4, max_list=3))
    def check(tree):
        graph = static_graph(tree)
        assert len(graph.nodes) == submit_sites(tree)
        assert graph.to_digraph("g").source.startswith("digraph g {")

    check()


def test_a_task_inside_a_plain_cpp_block_is_a_node_of_the_emission_graph():
    # Found by the property above: the walker skipped ``Block`` ({ ... }) bodies.
    from nanopass.languages import EMISSION as E

    # (a guarded dummy has a push: emission's node rule, ``check_task_heads``)
    dummy = E.GuardedDummy("p", 1, [E.PushDep("t", None, True)], None, None)
    unit = E.Unit("f", 0, [], [], [], [E.Block([E.TaskArgs(False, None, "p", [], [], [], []), dummy])])
    graph = static_graph(unit)
    assert len(graph.nodes) == submit_sites(unit) == 1


def test_loop_carried_edges_between_sites_do_not_constrain_the_layout():
    stages = {s.language.name: s for s in stages_of(PROGRAMS / "graph_features.py")}
    graph = static_graph(stages["dep-annotated"].tree)
    graph.add_edge(GraphEdge("t5", "t2", "data", "x", carried=True))
    dot = graph.to_digraph("g").source
    assert 't5 -> t2 [label="↻ x" color=black constraint=false' in dot
    assert "t3 -> t3 [label=\"↻ last?\" arrowhead=empty color=blue headport=nw style=dashed tailport=sw" in dot
