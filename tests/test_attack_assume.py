"""The adversarial tester's assume grammar (tools/attack/assume.py): programs around session 27's
claims about the runtime and programs. The sequential meaning of a few of them is computed here by
hand (shared/spec/runtime-api.md section 11, dsl.md), a tiny random run must pass, and the oracle
is shown to fail on a recorded run with an ordering removed."""

from __future__ import annotations

import shutil

import pytest

from nanopass.tools.attack import assume as A
from nanopass.tools.attack import oracle, runner, semantics
from nanopass.tools.attack import program as P
from nanopass.tools.attack.surface import While

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
UP0 = P.Call("up", ("c0",), ("c0",))
CARRIES = (("c0", "p"), ("c1", "q"))


def _seq(prog, n=0, c=0):
    return semantics.run(prog, P.render(prog).lines, n, c)


def _tasks(seq) -> list:
    """(kernel, buffer of its first argument) of each task, in order."""
    return [(ev.kernel, ev.accesses[0].buf) for ev in seq.events if ev.kind == "task"]


def _loop(kind, trip, body, yields=("c1", "c0")):
    return P.Loop(kind, "i", trip, tuple(body), carries=CARRIES, yields=yields, results=("d0", "d1"))


# `for i, (c0, c1) in pl.parallel(2, init_values=(p, q)): c0 = up(c0); swap`, then
# `f, k = pl.submit(self.rd, d0)` and `d0 = self.wr(d0)`.
PARALLEL_SWAP = A._prog([_loop("parallel", 2, [UP0]), P.Call("rd", ("d0", None), ("f",), (), True, "k"),
                         P.Call("wr", ("d0",), ("d0",))], settings=((0, 0),))


def test_a_constant_parallel_loop_runs_every_iteration_in_order_by_hand():
    # Claim 1's state after the loop is that of its iterations in order, not of one run of the
    # body: iteration 0 updates p and swaps (c0 = q), iteration 1 updates q and swaps back, so
    # d0 is p (one run of the body would leave d0 = q). 0 up(p), 1 up(q), 2 rd(p), 3 wr(p).
    seq = _seq(PARALLEL_SWAP)
    assert _tasks(seq) == [("up", "ext:p"), ("up", "ext:q"), ("rd", "ext:p"), ("wr", "ext:p")]
    assert seq.events[2].reads[0][0] == ("ev", 0)
    # up is InOut: task 3's write of p follows task 0's read and write of it.
    assert {k: sorted(v) for k, v in oracle.sequential_conflicts(seq).items()} == {
        (0, 2): ["RAW"], (0, 3): ["WAR", "WAW"], (2, 3): ["WAR"]}


def test_a_guard_on_a_scalar_carry_the_body_steps_changes_between_iterations_by_hand():
    # Claim 2's near-miss: `k` starts at c and steps by 1; `if k > 1: c0 = up(c0)` over three
    # iterations runs for k = 2, 3 when c = 1 (two updates) and for k = 2 alone when c = 0.
    loop = A.ScalarLoop(3, (P.If(("k", ">", 1), (UP0,)),), CARRIES, ("c0", "c1"), ("d0", "d1"))
    prog = A._prog([loop])
    assert "for i, (k, c0, c1) in pl.range(3, init_values=(c, p, q)):" in P.render(prog).source
    assert _tasks(_seq(prog, 0, 1)) == [("up", "ext:p")] * 2
    assert _tasks(_seq(prog, 0, 0)) == [("up", "ext:p")]


def test_a_branch_no_iteration_takes_and_its_near_miss_by_hand():
    # Claim 3: `if i > 2` in pl.range(3) never runs; `if i > 1` runs in the last iteration (i = 2).
    dead = A._prog([_loop("range", 3, [P.If(("i", ">", 2), (UP0,))], ("c0", "c1"))])
    live = A._prog([_loop("range", 3, [P.If(("i", ">", 1), (UP0,))], ("c0", "c1"))])
    assert _tasks(_seq(dead)) == []
    assert _tasks(_seq(live)) == [("up", "ext:p")]


def test_a_branch_of_a_spanned_range_by_hand():
    # pl.range(1, 6, 2) runs for i = 1, 3, 5 (three iterations): `if i > 2` (T - 1 for T = 3)
    # is taken twice, `if i > 5` never.
    def loop(cond):
        return A.SpanLoop("range", 1, 6, 2, (P.If(cond, (UP0,)),), CARRIES, ("c0", "c1"), ("d0", "d1"))
    prog = A._prog([loop(("i", ">", 2))])
    assert "for i, (c0, c1) in pl.range(1, 6, 2, init_values=(p, q)):" in prog.source
    assert _tasks(_seq(prog)) == [("up", "ext:p")] * 2
    assert _tasks(_seq(A._prog([loop(("i", ">", 5))]))) == []


def test_a_constant_while_loop_and_its_trip_parity_by_hand():
    # Claim 7: `pl.cond(i < 3)` from 0 by 1 runs three iterations; with a swap, c0 is p, q, p and
    # d0 ends as q: 0 up(p), 1 up(q), 2 up(p), then rd(d0) reads q as task 1 left it.
    loop = While("i", 3, (UP0,), carries=CARRIES, yields=("c1", "c0"), results=("d0", "d1"))
    seq = _seq(A._prog([loop, P.Call("rd", ("d0", None), ("f",), (), True, "k")]))
    assert _tasks(seq) == [("up", "ext:p"), ("up", "ext:q"), ("up", "ext:p"), ("rd", "ext:q")]
    assert seq.events[3].reads[0][0] == ("ev", 1)


def test_a_stepped_while_loop_by_hand():
    # Claim 7 with another start and step: from 1 by 2 while i <= 5 runs for i = 1, 3, 5; with a
    # swap c0 is p, q, p: 0 up(p), 1 up(q), 2 up(p). Under `<` it runs for i = 1, 3 alone.
    def loop(op):
        return A.StepWhile(1, 2, op, 5, (UP0,), CARRIES, ("c1", "c0"), ("d0", "d1"))
    prog = A._prog([loop("<=")])
    src = prog.source
    assert "pl.while_(init_values=(1, p, q)):" in src and "pl.cond(i <= 5)" in src
    assert "n_done, d0, d1 = pl.yield_(i + 2, c1, c0)" in src
    assert _tasks(_seq(prog)) == [("up", "ext:p"), ("up", "ext:q"), ("up", "ext:p")]
    assert _tasks(_seq(A._prog([loop("<")]))) == [("up", "ext:p"), ("up", "ext:q")]


def test_a_tensor_made_in_a_loop_is_new_each_iteration_by_hand():
    # Claim 6: `t = pl.create_tensor(...)`, `c0 = up(c0)`, `t = wr(t)`, yield (t, c1): iteration 1
    # updates iteration 0's t (through c0), then writes its own new t.
    body = (P.Create("t", "B"), UP0, P.Call("wr", ("t",), ("t",)))
    seq = _seq(A._prog([_loop("range", 2, body, ("t", "c1"))]))
    (k0, b0), (k1, b1), (k2, b2), (k3, b3) = _tasks(seq)
    assert (k0, b0, k1, k2, k3) == ("up", "ext:p", "wr", "up", "wr")
    assert b2 == b1 and b3 != b1 and b1.startswith("c") and b3.startswith("c")


def test_a_carry_swapped_with_a_manual_dep_tensor_by_hand():
    # Claim 8: c1 starts as the manual_dep m; swapped each iteration, c0 is p, m, p: the updates
    # of p are tracked, the one of m is not.
    prog = A._prog([P.Create("m", "B", init=1.0, manual_dep=True),
                    P.Loop("range", "i", 3, (UP0,), carries=(("c0", "p"), ("c1", "m")), yields=("c1", "c0"),
                           results=("d0", "d1"))], extra=("p",))
    seq = _seq(prog)
    assert [(ev.accesses[0].buf == "ext:p", ev.accesses[0].manual_dep) for ev in seq.events] == [
        (True, False), (False, True), (True, False)]


def test_random_programs_are_reproducible_and_cover_every_claim():
    progs = [A.generate(4821 + k) for k in range(16)]
    assert [p.source for p in progs] == [A.generate(4821 + k).source for k in range(16)]
    assert {type(A.generate(4821, claim=c)).__name__ for c in A.CLAIMS} == {"Program"}
    hosts = [A.generate(4821 + k, claim="host") for k in range(10)]
    assert all("with pl.manual_scope():" in p.source and "pl.tensor.read" in p.source for p in hosts)


@needs_gxx
def test_a_tiny_run_of_every_claim_passes():
    for k, claim in enumerate(A.CLAIMS):
        rep = A.generate(4821 + k, claim=claim).check()
        assert not rep.classes() and not rep.invalid and rep.runs > 0, (claim, runner.describe(rep))


@needs_gxx
def test_the_oracle_fails_when_a_recorded_ordering_is_removed():
    # PARALLEL_SWAP: `d0 = self.wr(d0)` (task 3) writes p after `rd(d0)` (task 2) read it; the
    # runtime records no reader, so that order is the compiler's explicit dependency. With it
    # removed from the log the pair is a hazard and, latest first, the read sees the write.
    rep, runs = runner.recorded(PARALLEL_SWAP)
    assert not rep.classes() and rep.runs == 1
    seq, log, ids = runs[0]
    assert oracle.check_run(seq, log, ids) == []
    submits = [k for k, ev in enumerate(log) if ev["ev"] == "submit"]
    last = submits[3]
    assert log[last]["deps"], "the writer of p after the loop waits for its reader explicitly"
    edited = [dict(ev) for ev in log]
    edited[last]["deps"] = []
    classes = {f.cls for f in oracle.check_run(seq, edited, ids)}
    assert "hazard WAR task>task AA" in classes and "value task latest-first" in classes, classes
