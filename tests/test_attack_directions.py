"""The adversarial tester's directions grammar (tools/attack/directions.py) and its family D
(tools/attack/found/RUNS.md): two `pl.Out` parameters reached through `if` results, loop carries
and copies. The family can fail: with derive_call_directions' InOut arguments made OutputExisting
after the pass (its output rewritten; the pass itself unread), a sample of the family fails, as
hazards and as values read in the latest-first order (oracle.latest_first)."""

from __future__ import annotations

from nanopass.language import Node
from nanopass.languages.terms import ArgDir
from nanopass.tools.attack import directions, grammar, runner
from nanopass.tools.attack import program as P

# RUNS.md, family D: every two-atom program of the grammar, straight or with one atom in an `if`
# or a loop of constant or parameter trip count (and the swap loop), before or after the other
FAMILY_D = ["atom,atom", "atom,if_n(atom)", "if_n(atom),atom", "atom,range_n(atom)", "range_n(atom),atom",
            "atom,range_2(atom)", "range_2(atom),atom", "atom,swap_n(atom)", "swap_n(atom),atom"]


def test_family_d_has_its_count_by_hand():
    # 12 atoms, none its own image under o <-> p: 12 * 12 / 2 = 72 classes of two atoms, 9 shapes
    assert len(directions.ATOMS) == 12
    assert directions.count(2, patterns=["atom,atom"]) == 72
    assert sum(directions.count(grammar.pattern_size(p), patterns=[p]) for p in FAMILY_D) == 9 * 72 == 648


def test_a_program_declares_out_parameters_and_ends_with_host_reads_of_both_names():
    prog = directions.build(("atom", ("if_n", ("atom",))), (directions.ATOMS.index(("cp", "p", "o")),
                                                         directions.ATOMS.index(("wr", "p"))))
    src = P.render(prog).source
    assert "o: pl.Out[pl.Tensor[[4, 4], pl.FP32]], p: pl.Out[pl.Tensor[[4, 4], pl.FP32]]" in src
    body = src.split("-> pl.Tensor[[8, 4], pl.FP32]:\n")[-1]
    assert body.splitlines()[:3] == ["        p = o", "        if n > 1:", "            p = self.wr(p)"]
    assert "h1 = pl.tensor.read(o, [1, 1])\n        pl.tensor.write(sink, [0], h1)" in body
    assert "h2 = pl.tensor.read(p, [1, 1])\n        pl.tensor.write(sink, [1], h2)" in body


def _rewritten(node, old, new):
    """``node`` with every ``(Arg value old)`` made ``(Arg value new)``."""
    if isinstance(node, tuple):
        out = tuple(_rewritten(x, old, new) for x in node)
        return node if all(a is b for a, b in zip(out, node)) else out
    if not isinstance(node, Node) or not node._child_fields:
        return node
    changes = {f: c for f, _ in node._child_fields
               for c in [_rewritten(getattr(node, f), old, new)] if c is not getattr(node, f)}
    if node._production == "Arg" and node.dir == old:
        changes["dir"] = new
    return node.replace(**changes) if changes else node


# a sample of family D: a write through an `if` result or a carry after an earlier write or a
# partial host write of the same buffer, and the same buffer reached as a carry and directly
SAMPLE = [
    ("atom,if_n(atom)", (("up", "o"), ("wr", "o"))),
    ("if_n(atom),atom", (("wr", "o"), ("up", "o"))),
    ("atom,range_n(atom)", (("hw", "o"), ("up", "o"))),
    ("atom,range_2(atom)", (("cp", "p", "o"), ("wr", "p"))),
    ("atom,swap_n(atom)", (("up", "o"), ("wr", "p"))),
    ("atom,if_n(atom)", (("new", "o"), ("wr", "o"))),     # the control: a first writer, right either way
]


def _sample():
    for pattern, atoms in SAMPLE:
        want = grammar.parse_pattern(pattern)
        shape = next(s for s in directions.ordered_shapes(grammar.pattern_size(pattern)) if grammar.matches(want, s))
        yield directions.build(shape, tuple(directions.ATOMS.index(a) for a in atoms))


def test_the_family_finds_outputexisting_given_for_inout(monkeypatch):
    progs = list(_sample())
    assert all(not runner.check(p).classes() for p in progs)

    from nanopass.passes import derive_call_directions
    run = derive_call_directions.DeriveCallDirections.run
    monkeypatch.setattr(derive_call_directions.DeriveCallDirections, "run",
                        lambda self, tree: _rewritten(run(self, tree), ArgDir.InOut, ArgDir.OutputExisting))
    classes = [runner.check(p).classes() for p in progs]
    assert all(any(c.startswith("hazard") for c in cs) for cs in classes[:5]), classes
    assert all(any(c.startswith("value") and c.endswith("latest-first") for c in cs) for cs in classes[:5]), classes
    assert classes[5] == set()
