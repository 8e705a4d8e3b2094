"""The adversarial tester's fences grammar (tools/attack/fences.py): a loop carrying a TaskId in
AUTO code or a manual scope, with deps= on the carry and the body's last id, guards on the
iteration, task_dummy joins, pl.no_dep and host accesses. The TaskId sets, conflicting pairs and
values below are computed by hand (docs/semantics.md: a TaskId is a set of tasks; shared/spec/
runtime-api.md section 11), and the oracle is shown to fail on a recorded run with an ordering
removed."""

from __future__ import annotations

import shutil

import pytest

from nanopass.tools.attack import fences as F
from nanopass.tools.attack import oracle, runner, semantics
from nanopass.tools.attack import program as P

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")

# The seed's phase fence over a parallel fan in a manual scope:
#   #0 up(w); for i in parallel(2): #1, #2 up(rows 4i..4i+3 of a, deps=[u]) (u = t = {#0});
#   tr = task_dummy(deps=[tr]) = {#1, #2}; #3 rda(a, deps=[tr]); after the scope #4 host read
#   of a[5, 1] (iteration 1's rows), #5 its write into sink.
FAN = F.build(F.Frame("manual", "par2"), pre=(("up", "w", "t0"),), body=(("up", "s", "u"),),
              mid=(("jn", "", ""), ("rd", "a", "tr")), post=(("hr", "a", ""),))


def _tail(prog) -> list:
    return P.render(prog).source.split("-> pl.Tensor[[8, 4], pl.FP32]:\n")[-1].splitlines()


def _seq(prog, n=0):
    return semantics.run(prog, P.render(prog).lines, n, 0)


def _pairs(prog, n=0) -> dict:
    return {k: sorted(v) for k, v in oracle.sequential_conflicts(_seq(prog, n)).items()}


def test_the_fan_renders_the_seeds_phase_fence():
    assert _tail(FAN)[:13] == [
        "        with pl.manual_scope():",
        "            t0 = None",
        "            w1, t0 = pl.submit(self.up, w, deps=[t0])",
        "            for i, (t,) in pl.parallel(2, init_values=(t0,)):",
        "                u = t",
        "                s = pl.tensor.slice(a, [4, 4], [i * 4, 0])",
        "                s2, u = pl.submit(self.up, s, deps=[u])",
        "                tr = pl.yield_(u)",
        "            tr = pl.system.task_dummy(deps=[tr])",
        "            f5, k4 = pl.submit(self.rda, a, deps=[tr])",
        "        h7 = pl.tensor.read(a, [5, 1])",
        "        pl.tensor.write(sink, [7], h7)",
        "        return a"]
    assert FAN.settings == ((0, 0),)     # reads no n


def test_the_fans_taskid_sets_pairs_and_values_by_hand():
    seq = _seq(FAN)
    # every iteration starts from the init {#0}; the join holds both iterations
    assert [getattr(ev, "user_deps", None) for ev in seq.events[:4]] == [
        frozenset(), frozenset({0}), frozenset({0}), frozenset({1, 2})]
    # rows 0-3 (#1) and 4-7 (#2) are disjoint; both are read by #3, a[5, 1] (flat 21) by #4
    assert _pairs(FAN) == {(1, 3): ["RAW"], (2, 3): ["RAW"], (2, 4): ["RAW"]}
    assert seq.events[4].reads[0] == [("ev", 2)]
    assert seq.memory[("ext:a", 21)] == ("ev", 2) and seq.memory[("ext:a", 1)] == ("ev", 1)
    assert F.careless(FAN) is None


def test_an_auto_parallel_carry_is_sequential():
    # The same loop in AUTO code: the carry is sequential (docs/semantics.md), so the second
    # iteration's deps=[u] name the first iteration's task and tr is the last one alone.
    prog = F.build(F.Frame("auto", "par2"), pre=(("up", "w", "t0"),), body=(("up", "s", "u"),),
                   mid=(("rd", "a", "tr"),))
    seq = _seq(prog)
    assert [ev.user_deps for ev in seq.events[:4]] == [frozenset(), frozenset({0}), frozenset({1}), frozenset({2})]


def test_careless_deps_in_a_manual_scope_are_found():
    # Without the join's dependency the reader of a is ordered after neither iteration.
    no_dep = F.build(F.Frame("manual", "par2"), body=(("up", "s", "u"),), mid=(("rd", "a", ""),))
    assert "task up (line 21, #0) and task rda (line 23, #2)" in F.careless(no_dep)
    # A range loop's writes of w: deps=[t] names the previous iteration (the carry is
    # sequential), so n = 2 is ordered; with no deps the two iterations' writes conflict.
    chained = F.build(F.Frame("manual", "range"), body=(("up", "w", "t"),), mid=(("up", "w", "tr"),))
    assert F.careless(chained) is None
    bare = F.build(F.Frame("manual", "range"), body=(("up", "w", ""),))
    assert F.careless(bare).startswith("n=2: task up")
    # A guarded task rebinds u: at n = 2 the odd iteration's writer of w waits on t, the
    # previous iteration's yield, which is the carry it started from: {} (iteration 0 ran no task).
    odd = F.build(F.Frame("manual", "while"), body=(("guard", "if_odd", (("up", "w", "t"),)),),
                  mid=(("up", "w", "tr"),))
    seq = _seq(odd, 2)
    assert [ev.user_deps for ev in seq.events] == [frozenset(), frozenset({0})]
    assert F.careless(odd) is None
    assert bare.check().invalid.startswith("careless user deps: n=2")


def test_the_counts_of_size_1_by_hand():
    # Atoms: body 15, pre 5, mid 6, post 4 (after a manual scope only); seven frames (a manual
    # parallel(n) is refused: test_a_manual_parallel_loop_of_n_iterations_is_refused): four AUTO
    # frames of 26 single atoms, three manual ones of 30. Careless among them: in a manual
    # range or while loop, a body writer of w without deps (iterations 0 and 1 at n = 2); every
    # other single atom reads w only, writes its own rows, waits on the carry, which in a
    # sequential loop is the previous iteration's task, or is waived (pl.no_dep, parallel).
    assert (len(F.BODY_ATOMS), len(F.PRE_ATOMS), len(F.MID_ATOMS), len(F.POST_ATOMS)) == (15, 5, 6, 4)
    assert sum(1 for _ in F._all(1)) == 4 * 26 + 3 * 30 == 194
    progs = list(F.programs(1))
    assert len(progs) == F.count(1) == 194 - 2
    names = [p.source for p in progs]
    assert len(set(names)) == len(names)


@needs_gxx
def test_a_manual_parallel_loop_of_n_iterations_is_refused():
    prog = F.build(F.Frame("manual", "parn"), body=(("up", "w", "t"),), mid=(("up", "w", "tr"),))
    rep = prog.check()
    assert rep.refusal.startswith("prog.py:14:13: error: a pl.parallel loop that carries a TaskId in a manual scope")
    assert "statically-known trip count" in rep.refusal


@needs_gxx
def test_the_fan_passes_and_the_oracle_fails_without_the_fence():
    rep, runs = runner.recorded(FAN)
    assert not rep.classes() and rep.runs == 1
    seq, log, ids = runs[0]
    assert oracle.check_run(seq, log, ids) == []
    submits = [k for k, ev in enumerate(log) if ev["ev"] == "submit"]
    assert len(submits) == 4
    last = submits[3]
    assert log[last]["deps"], "the reader of a waits for the fence"
    edited = [dict(ev) for ev in log]
    edited[last]["deps"] = []
    classes = {f.cls for f in oracle.check_run(seq, edited, ids)}
    assert "hazard RAW task>task MM" in classes, classes
    assert "value task latest-first" in classes, classes


@needs_gxx
def test_a_tiny_exhaustive_run_finds_nothing():
    # One program of each frame: the body's writer of w with deps=[u].
    progs = [F.build(f, body=(("up", "w", "u"),), mid=(("rd", "a", "tr"),)) for f in F.FRAMES]
    for prog in progs:
        rep = prog.check()
        assert not rep.classes(), runner.describe(rep)
        assert rep.lean is not None and rep.lean["unordered"] == 0


def test_random_programs_are_reproducible_and_careful():
    progs = [F.generate(4806 + k) for k in range(30)]
    assert [p.source for p in progs] == [F.generate(4806 + k).source for k in range(30)]
    assert all(F.careless(p) is None for p in progs)
    assert {type(p.body[0]).__name__ for p in progs} >= {"Manual", "NoneTid"}


def test_the_seeds_phases_chain_each_phase_after_the_whole_last_one_by_hand():
    # pl.range(n) of the pl.parallel(2) fan, in a manual scope: every iteration of phase 1 waits
    # on tp, the union of phase 0's yields. n = 2: #0, #1 write rows 0-3, 4-7 (deps {}); #2, #3
    # the same rows in phase 1 (deps {#0, #1}); tr = {#2, #3}; #4 reads a (deps {#2, #3}).
    prog = F.build(F.Frame("manual", "phases"), body=(("up", "s", "t"),), mid=(("rd", "a", "tr"),))
    assert _tail(prog)[2:4] == ["            for ph, (tp,) in pl.range(n, init_values=(t0,)):",
                                "                for i, (t,) in pl.parallel(2, init_values=(tp,)):"]
    seq = _seq(prog, 2)
    assert [ev.user_deps for ev in seq.events] == [frozenset(), frozenset(), frozenset({0, 1}),
                                                   frozenset({0, 1}), frozenset({2, 3})]
    # up is InOut: phase 1's update reads and writes what phase 0's wrote (RAW, WAR, WAW)
    rmw = ["RAW", "WAR", "WAW"]
    assert _pairs(prog, 2) == {(0, 2): rmw, (0, 4): ["RAW"], (1, 3): rmw, (1, 4): ["RAW"],
                               (2, 4): ["RAW"], (3, 4): ["RAW"]}
    assert F.careless(prog) is None
    # n = 0: no phase runs, tr is t0 (None): the reader waits on nothing and conflicts with nothing
    assert [ev.user_deps for ev in _seq(prog, 0).events] == [frozenset()]
