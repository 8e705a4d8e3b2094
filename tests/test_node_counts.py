"""The node-count tool: the nodes and spans a phase builds are those of its output that its input
does not hold, each counted once."""

from __future__ import annotations

from conftest import EXAMPLES

from nanopass.errors import Span
from nanopass.language import Language, Nonterminal, Production, symbol
from nanopass.tools import node_counts

L = Language(
    "node_counts_toy",
    terminals=[symbol],
    entry="T",
    nonterminals=[Nonterminal("T", Production("Pair", "left:T", "right:T"), Production("Leaf", "name:symbol"))],
)


def test_a_phase_builds_the_nodes_and_spans_its_input_does_not_hold():
    a, b = L.Leaf.make("a", Span("f.py", 1, 0)), L.Leaf.make("b", Span("f.py", 2, 0))
    before = L.Pair.make(a, b, Span("f.py", 1, 0))
    c = L.Leaf.make("c", b.span)  # a new node with the input's span
    after = L.Pair.make(a, L.Pair.make(c, c, Span("f.py", 3, 4)), before.span)
    # distinct nodes of after: its root, a, the inner Pair, c (held twice, counted once) = 4;
    # built: the root, the inner Pair and c = 3 (a is the input's); spans built: the inner Pair's = 1
    assert node_counts.built(before, after) == (4, 3, 1)
    # the front end's: everything is built; spans: a's and b's (the root shares a's value but
    # not its object) and the root's = 3
    assert node_counts.built(None, before) == (3, 3, 3)
    assert node_counts.built(before, before) == (3, 0, 0)


def test_every_pass_of_a_compile_is_reported(capsys):
    assert node_counts.main([str(EXAMPLES / "basic.py")]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.startswith("  ")}
    for phase in ("front", "convert_to_ssa", "lower_to_emission", "passes"):
        assert phase in rows, out
    nodes, built, spans = (int(v) for v in rows["front"][-3:])
    assert nodes == built > 0 and spans > 0, out  # the front end builds every node of its tree
