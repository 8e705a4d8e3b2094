"""The guards-while grammar (tools/attack/guards_while.py): guards.py's programs around a
`pl.while_` loop whose counter is a carry; its exhaustive counts by hand, and a few programs run
end to end in both runtime models."""

from nanopass.tools.attack import cli
from nanopass.tools.attack import guards as G
from nanopass.tools.attack import guards_while as W
from nanopass.tools.attack import runner


def test_exhaustive_counts_by_hand():
    assert cli.GRAMMARS["guards-while"] is W
    # atoms: guards.py's 6 ops (rd up wr mv hr hw) x 3 places (w c p) x 2 tensors = 36
    assert W.ATOMS == G.ATOMS and len(W.ATOMS) == 36
    # frames: the plain pl.while_ to n; 3 other stops (2 1 0), 2 other carries (keep swap),
    # 5 other wraps (nest2 nestn man inside chain), 12 other PREs (rd rdn rd2 rd0 upn up2 swn sw2
    # sw0 srn sr2 sr0), 11 pairs
    assert len(W.EX_FRAMES) == 1 + 3 + 2 + 5 + 12 + 11 == 34
    assert all(f.loop[0] == "while" for f in W.EX_FRAMES)
    assert len({f.loop for f in W.FRAMES}) == 4 and len(W.FRAMES) == 4 * 3 * 6 * 13
    size1 = list(W.programs(1))
    assert W.count(1) == len(size1) == 36 * 34 == 1224
    assert len({p.source for p in size1}) == len(size1)          # no two programs alike
    assert all("pl.while_(init_values=(0" in p.source and "pl.yield_(i + 1" in p.source for p in size1)
    assert {(f, fill) for f, _, fill in W.points(1)} == {(f, (k,)) for f in W.EX_FRAMES for k in range(36)}
    # size 2: a guard (7 of them) around one atom, or two atoms
    assert W.count(2) == sum(1 for _ in W.points(2)) == (7 * 36 + 36 * 36) * 34 == 52632


def test_programs_run_in_both_models():
    up_own = W.ATOMS.index(("up", "c", "t"))
    # (t, u) swapped through a while to 2; the even trip (i = 0) updates c0's own block: no
    # setting reads n, one run: the update and the POST's reader of d0
    prog = W.build(W.Frame(("while", 2), "swap"), (("if_even", ("atom",)),), (up_own,))
    src = prog.source
    assert "for (i, c0, c1) in pl.while_(init_values=(0, t, u)):" in src and "pl.cond(i < 2)" in src
    assert "n_done, d0, d1 = pl.yield_(i + 1, c1, c0)" in src and "[i * 4 + 4, 0]" in src
    assert prog.settings == ((0, 0),)
    rep = prog.check()
    assert rep.runs == 1 and rep.classes() == set(), runner.describe(rep)
    assert rep.tasks == 2
    # the counter alone carried, to n, in a TaskId chain: `if n > i` readers of the block before
    chain = W.build(W.Frame(W.BASE.loop, wrap="chain"), (("if_nbig", ("atom",)),),
                    (W.ATOMS.index(("rd", "p", "u")),))
    assert "for (i, m) in pl.while_(init_values=(0, m0)):" in chain.source and "deps=[m]" in chain.source
    assert chain.settings == tuple((n, 0) for n in range(5))
    rep = chain.check()
    assert rep.runs == 5 and rep.classes() == set(), runner.describe(rep)
    # n trips of readers (0 + 1 + 2 + 3 + 4) and the POST's reader of t in each run
    assert rep.tasks == 10 + 5
