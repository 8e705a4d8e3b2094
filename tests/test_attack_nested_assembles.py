"""The adversarial tester's nested-assembles grammar (tools/attack/nested.py): an assemble whose
source was itself assembled into (`t = pl.assemble(t, u, ...)`, then `a = pl.assemble(a, t, ...)`),
with uses of every level before and after each assemble. Its enumeration is counted by hand, a
fixed sample passes the oracle on the current compiler (uses of the inner source after the outer
assemble among them), and the tester can fail: a compilation with a dependency removed, or with
the inner source placed in the wrong rows, is caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from nanopass.tools.attack import cli, found, nested, record, runner, semantics
from nanopass.tools.attack import program as P

TWO, THREE = nested.TWO, nested.THREE


def spec(*items) -> tuple:
    """(shape, fill) of items written as atoms ("T", "A1", "rd u", ...) or (block, [items])."""
    shape, fill = [], []
    for item in items:
        if isinstance(item, str):
            shape.append("atom")
            fill.append(tuple(item.split()) if " " in item else item)
        else:
            inner, inner_fill = spec(*item[1])
            shape.append((item[0], inner))
            fill += inner_fill
    return tuple(shape), tuple(fill)


def prog(*items, target="a", g=TWO) -> P.Program:
    shape, fill = spec(*items)
    assert g.valid(list(fill), nested._atom_paths(shape)), items
    return g.build(shape, fill, target)


def test_sizes_4_and_5_counted_by_hand():
    # size 4: the skeleton T M A1 A2 alone, for each outer target
    assert TWO.count(4) == 2
    # size 5, five atoms: one use (4 ops x 3 levels) in one of five places; before T only the
    # outer target's 4 uses are bound, between T and M also t's (8), after M all 12: 4 + 8 + 3 * 12.
    # Four atoms, a block around a run of the skeleton: a manual scope around any of the 10 runs
    # (what it binds is bound after it); a loop or an `if` holding a maker holds every later use of
    # its name, so of the 10 runs [T..A2], [M..A1], [M..A2], [A1], [A1..A2], [A2]: 10 + 2 * 6.
    # Twice (targets a and o).
    assert TWO.count(5) == 2 * (4 + 8 + 3 * 12 + 10 + 2 * 6) == 140
    assert TWO.count(5) == sum(1 for _ in TWO.programs(5))
    assert THREE.count(6) == 2 and TWO.count(3) == 0


def test_the_grammar_is_in_the_cli_and_its_programs_are_deterministic():
    assert cli.GRAMMARS["nested"] is TWO and cli.GRAMMARS["nested3"] is THREE
    assert [P.render(p).source for p in TWO.programs(5)][7] == P.render(list(TWO.programs(5))[7]).source
    for seed in range(30):
        assert TWO.generate(seed) == TWO.generate(seed) and THREE.generate(seed, 9) == THREE.generate(seed, 9)


def test_a_program_nests_its_assembles_and_a_manual_scope_carries_a_careful_users_deps():
    src = P.render(prog(("manual", ["T", "M", "A1", "A2", "rd u", "rd a"]))).source
    body = src.split("-> pl.Tensor[[8, 4], pl.FP32]:\n")[-1]
    assert body.splitlines()[1:10] == [
        "            ta = None", "            tt = None", "            tu = None",
        "            t = pl.create_tensor([4, 4], dtype=pl.FP32)",
        "            u = pl.create_tensor([2, 4], dtype=pl.FP32)",
        "            u, tu = pl.submit(self.wrd, x, u)",
        "            t = pl.assemble(t, u, [2, 0])",
        "            a = pl.assemble(a, t, [4, 0])",
        "            f1, tu = pl.submit(self.rdd, u, deps=[tu])"]
    # a task on the outer rows waits for every level assembled into them
    assert "f3, ta = pl.submit(self.rd, s2, deps=[ta, tt, tu])" in body
    three = P.render(prog("T", "U", "M", "A0", "A1", "A2", "hr v", target="o", g=THREE)).source
    assert "u = pl.assemble(u, v, [1, 0])" in three and "h2 = pl.tensor.read(o, [7, 1])" in three


# Uses of each level before and after each assemble, in loops, ifs and manual scopes: programs
# the compiler places (each assemble in the block of its source's maker) or rightly refuses.
SAMPLE = [
    ("T", "M", "A1", "A2", "rd u"),                 # the inner source read after the outer assemble
    ("T", "M", "A1", "rd u", "A2", "hr u", "rd t"),
    ("up a", "T", "M", "A1", "A2", "hr a"),         # the outer rows written before the middle's create
    ("T", "M", "A1", "A2", "up u"),                 # no correct compilation: refused, rightly
    ("T", "M", "A1", "hw t", "A2"),                 # no correct compilation: refused, rightly
    (("manual", ["T", "M", "A1", "A2", "rd u"]),),
    (("manual", ["rd a", "T", "M", "A1", "A2"]),),  # a placed pair the user cannot see (found/31)
    (("range_n", ["T", "M", "A1", "A2", "rd u"]),),
    ("T", ("range_n", ["M", "A1", "rd u"]), "A2", "rd t"),
    (("if", ["T", "M", "A1", "A2", "hr u"]),),
    (("range_n", [("manual", ["T", "M", "A1", "A2", "rd t"])]),),
]


# the fresh outer target `o` (read by the host at the end) for four of them: a read of u after the
# assembles, a right refusal, a manual scope, a loop
SAMPLE_O = [SAMPLE[i] for i in (0, 3, 5, 8)]


@pytest.mark.parametrize("items, target", [(items, "a") for items in SAMPLE] + [(items, "o") for items in SAMPLE_O],
                         ids=lambda x: repr(x)[:60])
def test_a_sample_of_the_grammar_passes(items, target):
    rep = runner.check(prog(*items, target=target))
    assert rep.invalid is None and rep.classes() == set(), runner.describe(rep)


@pytest.mark.parametrize("items", [("T", "U", "M", "A0", "A1", "A2", "rd v"),
                                   ("T", "U", "M", "A0", "A1", "A2", "rd u", "hr a"),
                                   (("manual", ["T", "U", "M", "A0", "A1", "A2", "rd v"]),)],
                         ids=lambda items: repr(items)[:60])
def test_a_sample_of_three_levels_passes(items):
    rep = runner.check(prog(*items, g=THREE))
    assert rep.invalid is None and rep.classes() == set(), runner.describe(rep)


# ---- the tester can fail -----------------------------------------------------------------------

def _compiling_wrong(monkeypatch, old: str, new: str) -> None:
    """Compile with nanopass, then replace `old` by `new` in the C++ (it must be there)."""
    real = record.compile_dsl

    def wrong(path, **options):
        comp = real(path, **options)
        assert comp.code is not None and old in comp.code, comp.error or comp.code
        comp.code = comp.code.replace(old, new)
        return comp
    monkeypatch.setattr(record, "compile_dsl", wrong)


def test_a_dependency_removed_is_caught(monkeypatch):
    """The reader of the inner source after both assembles, in a manual scope, without its
    `deps=[tu]` edge on the source's writer: a hazard, and the value read latest first."""
    _compiling_wrong(monkeypatch, "params_t1.set_dependencies(params_t1_deps, params_t1_deps_count);", "")
    rep = runner.check(prog(("manual", ["T", "M", "A1", "A2", "rd u"])))
    assert {"hazard RAW task>task MM", "value task latest-first"} <= rep.classes(), runner.describe(rep)


def test_the_inner_source_placed_in_the_wrong_rows_is_caught(monkeypatch):
    """u placed in rows 0..1 of t instead of 2..3: the outer target ends with the wrong rows."""
    _compiling_wrong(monkeypatch, "uint32_t u_offsets[2] = {2, 0};", "uint32_t u_offsets[2] = {0, 0};")
    rep = runner.check(prog("T", "M", "A1", "A2", "rd u"))
    assert "value final" in rep.classes(), runner.describe(rep)


def test_a_refusal_of_a_placeable_nest_is_caught_and_of_an_unplaceable_one_is_right(monkeypatch):
    """Refused at the inner assemble, quoting its names (the error a compiler gives)."""
    def refusing(path, **options):
        line = next(i for i, text in enumerate(Path(path).read_text().splitlines(), 1) if "pl.assemble(t, u" in text)
        return record.Compiled(error_kind="user", error=f"{path}:{line}:13: error: 'u' is used after it was "
                               "assembled into 't'")
    monkeypatch.setattr(record, "compile_dsl", refusing)
    placeable = runner.check(prog("T", "M", "A1", "A2", "rd u"))
    assert placeable.classes() == {"refusal"}
    unplaceable = runner.check(prog("T", "M", "A1", "A2", "up u"))
    assert unplaceable.right_refusal() and unplaceable.classes() == set(), runner.describe(unplaceable)


@pytest.mark.parametrize("name", [n for n in found.FOUND if n.startswith(("42-", "43-", "44-"))])
def test_the_refusals_found_are_of_placeable_programs(name):
    """found/42-44, the refusals this grammar found: the tester's semantics finds every run
    placeable (no reason a refusal could name), so a refusal of them is a failure."""
    cls, _, program = found.FOUND[name]
    rendered = P.render(program)
    assert cls == "refusal"
    for n, c in runner.SETTINGS:
        assert semantics.run(program, rendered.lines, n, c).unorderable == []


def test_the_inner_sources_writer_is_no_access_to_the_outer_rows_at_a_second_assemble():
    """`t` (u placed in it) assembled into rows 4..7 of a in each iteration of a loop: at the second
    assemble, the write of u before the inner assemble is t's own (u is t's memory), not an access to
    a's rows between t's creation and the assemble (the tester counted it one, and so the
    compiler's refusal of the program right). A host write of u after the outer assemble is still a
    difference the placement makes (a's final rows)."""
    looped = prog("T", "M", "A1", ("range_n", ["A2"]))
    written = prog("T", "M", "A1", ("range_n", ["A2", "hw u"]))
    for n in (1, 2):
        assert semantics.run(looped, P.render(looped).lines, n, 0).unorderable == []
        assert semantics.run(written, P.render(written).lines, n, 0).unorderable != []
