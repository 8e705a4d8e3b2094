"""The rebinds grammar (tools/attack/rebinds.py): its exhaustive mode enumerates what its doc says,
its programs mean what they say, and its check runs both runtime models on a few of them."""

from nanopass.tools.attack import cli, runner, semantics
from nanopass.tools.attack import program as P
from nanopass.tools.attack import rebinds as R


def atom(*a) -> int:
    return R.ATOMS.index(a)


def test_exhaustive_counts_by_hand():
    assert cli.GRAMMARS["rebinds"] is R
    # atoms: 6 accesses (rd up rr ur hr hw) x 3 names (t u w) = 18; the view's rv uv hv, the
    # assembles of t and u into a, of t into g, the reader of g = 7; the rebinds t=w u=w t=u u=t
    # sw, mk t, mk u, sv, g=b = 9
    assert len(R.ATOMS) == 18 + 7 + 9 == 34
    assert len(R.PARALLEL_ATOMS) == 34 - 9 == 25
    # size 1: one atom, two POSTs
    size1 = list(R.programs(1))
    assert R.count(1) == len(size1) == 34 * 2
    assert len({p.source for p in size1}) == len(size1)          # no two programs alike
    # size 2: two atoms, or one of 8 sequential blocks (range1 range2 rangen if ifelse manual
    # swap2 swapn) around any atom, or one of 3 parallel blocks around an atom that rebinds nothing
    assert R.count(2) == (34 * 34 + 8 * 34 + 3 * 25) * 2 == 3006
    # counted, as enumerated, by the shared framed enumeration (grammar.Framed): --skip builds none
    assert R.ENUMERATION.count(2) == sum(1 for _ in R.points(2)) == 3006


def test_no_manual_scope_holds_a_parallel_loop_or_another_scope_no_parallel_body_an_else():
    for shape in R._shapes(3):
        for block, inner in (item for item in shape if item != "atom"):
            if block == "manual":
                assert all(i == "atom" or i[0] not in R.BARRED_IN_MANUAL for i in inner), shape
            if block in R.PARALLEL:
                assert all(i == "atom" or i[0] != "ifelse" for i in inner), shape


def test_a_rebinding_in_a_loop_reaches_the_parameter():
    # `for i1 in pl.range(1): t = w` then `t = self.upB(t)`: the task writes w, not the create
    prog = R.build((("range1", ("atom",)), "atom"), (atom("t=w"), atom("up", "t")), "rd")
    src = prog.source
    assert "for i1 in pl.range(1):\n            t = w\n        t = self.upB(t)" in src
    seq = semantics.run(prog, P.render(prog).lines, 0, 0)
    up = [e for e in seq.events if e.kernel == "upB"]
    assert [a.buf for a in up[0].accesses] == ["ext:w"]
    assert prog.settings == ((0, 0),)                    # reads neither n nor c


def test_a_swapped_carry_in_a_manual_scope_carries_the_chain():
    # fresh names in order: the chain m1, the counter i2, the carries p3 q4 and the chain's m5
    prog = R.build((("manual", (("swapn", ("atom",)),)),), (atom("up", "t"),), "rd")
    src = prog.source
    assert "for i2, (p3, q4, m5) in pl.range(n, init_values=(t, u, m1)):" in src
    assert "p3, m5 = pl.submit(self.upB, p3, deps=[m5])" in src
    assert "t, u, m1 = pl.yield_(q4, p3, m5)" in src
    assert prog.settings == tuple((n, 0) for n in range(4))


def test_a_few_programs_check_in_both_models():
    # session 53's miscompile, as this grammar writes it: t rebound to w in pl.range(1), then
    # assembled into a, whose final rows are read: no compilation copies w (semantics.py), so
    # the compiler's refusal of the assemble, located there and naming t, is the right answer
    bug = R.build((("range1", ("atom",)), "atom"), (atom("t=w"), atom("as", "t")), "rd")
    rep = bug.check()
    assert rep.refusal is not None and rep.refusal_check() == "name", runner.describe(rep)
    assert rep.classes() == set()
    # a branch rebinding t to w, a host write through t and a reader of t's rows, at c = 0, 1
    ok = R.build((("if", ("atom",)), "atom", "atom"), (atom("t=w"), atom("hw", "t"), atom("rr", "t")), "rd")
    assert "if c > 0:" in ok.source and ok.settings == ((0, 0), (0, 1))
    rep = ok.check()
    assert rep.refusal is None and rep.runs == 2 and rep.classes() == set(), runner.describe(rep)
    # per run: PRE's two writers, the reader of t's rows, POST's readers of t, u and v = 6
    assert rep.tasks == 12


def test_a_refusal_of_either_assemble_of_a_parameter_into_used_rows_is_right():
    # `t = w`, then t assembled into rows 4..7 of a twice, a's final rows read: neither assemble
    # has a compilation (w cannot be placed in a's rows), so a refusal of the first, as the
    # compiler's is, is as right as one of the second (exhaustive program rebinds2-02437)
    prog = R.build(("atom", "atom", "atom"), (atom("t=w"), atom("as", "t"), atom("as", "t")), "none")
    rendered = P.render(prog)
    first, second = (rendered.lines[id(s)] for s in prog.body if isinstance(s, P.Assemble))
    rep = runner.Report(rendered.source)
    runner.semantics_noting(rep, prog, rendered.lines, prog.settings)
    for line in (first, second):
        rep.refusal = f"prog.py:{line}:9: error: pl.assemble needs a source made by pl.create_tensor; 'w' is not"
        assert rep.refusal_check() == "name", (line, rep.reasons)
    rep.refusal = f"prog.py:{first - 1}:9: error: pl.assemble needs a source made by pl.create_tensor; 'w' is not"
    assert rep.refusal_check() is None                  # not at an assemble: wrong
