"""The guards grammar (tools/attack/guards.py): its exhaustive mode enumerates what its doc says,
and its check runs both runtime models and can fail in both."""

from nanopass.tools.attack import cli
from nanopass.tools.attack import guards as G
from nanopass.tools.attack import program as P
from nanopass.tools.attack import runner


def test_exhaustive_counts_by_hand():
    assert cli.GRAMMARS["guards"] is G
    # atoms: 6 ops (rd up wr mv hr hw) x 3 places (whole, own block, block before) x 2 tensors = 36
    assert len(G.ATOMS) == 36
    # frames: the plain pl.range(n); 4 other loops, 2 other carries (keep, swap), 5 other wraps
    # (nest2 nestn man inside chain), 12 other PREs (rd rdn rd2 rd0 upn up2 swn sw2 sw0 srn sr2
    # sr0), 10 pairs
    assert len(G.EX_FRAMES) == 1 + 4 + 2 + 5 + 12 + 10 == 34
    size1 = list(G.programs(1))
    assert G.count(1) == len(size1) == 36 * 34
    assert len({p.source for p in size1}) == len(size1)          # no two programs alike
    # size 2: a guard (7 of them) around one atom, or two atoms
    assert G.count(2) == sum(1 for _ in G.points(2)) == (7 * 36 + 36 * 36) * 34
    assert {(f, fill) for f, _, fill in G.points(1)} == {(f, (k,)) for f in G.EX_FRAMES for k in range(36)}


def test_a_program_runs_in_both_models():
    # a reader of the counter's own block of t under `if n > i` in pl.range(2): runs for n = 0..4
    prog = G.build(G.Frame(loop=("range", 2)), (("if_nbig", ("atom",)),), (G.ATOMS.index(("rd", "c", "t")),))
    assert "if n > i:" in prog.source and "[i * 4 + 4, 0]" in prog.source
    assert prog.settings == tuple((n, 0) for n in range(5))
    on_c = G.build(G.BASE, (("if_c", ("atom",)),), (0,))
    assert "if i < c:" in on_c.source
    assert on_c.settings == tuple((n, c) for c in (0, 1, 3) for n in range(5))
    rep = prog.check()
    assert rep.runs == 5 and rep.classes() == set(), runner.describe(rep)
    # tasks: per run, 2 loop trips x [n > i] readers + the POST's reader of t: n=0: 0+1, n=1: 1+1,
    # n>=2: 2+1 each -> 1 + 2 + 3 + 3 + 3
    assert rep.tasks == 12


def test_the_second_model_catches_a_race():
    # a manual scope whose reader does not wait for the writer before it: the user's race, which
    # the second model (nanopass check's, wired in by guards.model_failures) must report as a
    # hazard; the recorder's side is runner.check, tested in test_attack.py
    body = (P.Create("u", "F", 2.0),
            P.Manual((P.Call("upF", ("t",), ("t",)), P.Call("rdF", ("t", None), ("f",), (), True, "k"))))
    prog = G.Program(P.kernels_used(G.KERNELS, body), body, extra=("t",), extra_shapes=(("t", "F"),),
                     settings=((0, 0),))
    found = G.model_failures(prog.source, prog.settings)
    assert [(s, f.cls) for s, f in found] == [((0, 0), "hazard (runtime_model)")]
    assert "RAW on t" in found[0][1].detail
