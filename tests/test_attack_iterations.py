"""The adversarial tester's iterations grammar (tools/attack/iterations.py): one AUTO loop whose
iterations differ (guards on the counter, swapped carries, carries started as one tensor, a
tensor made in the body, a nest whose inner bound is the outer counter). Counts, the tasks'
buffers and the writes each read observes are computed here by hand (shared/spec/runtime-api.md
section 11, docs/semantics.md); the oracle is shown to fail on a recorded run with an ordering
removed and on the recorded run of a program that ignores the swap."""

from __future__ import annotations

import shutil

import pytest

from nanopass.tools.attack import iterations as I
from nanopass.tools.attack import oracle, runner, semantics
from nanopass.tools.attack import program as P

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")


def _a(op, x):
    return I.ATOMS.index((op, x))


def _tail(prog) -> list:
    return P.render(prog).source.split("-> pl.Tensor[[8, 4], pl.FP32]:\n")[-1].splitlines()


def _seq(prog, n=0):
    return semantics.run(prog, P.render(prog).lines, n, 0)


def _stamps(ev, pos=0) -> set:
    """The writes an access of `ev` observes: ("ev", k), ("ext", param) or ("fill",)."""
    return {st if st[0] == "ev" else st[:2] if st[0] == "ext" else st[:1] for st in ev.reads[pos]}


def test_the_counts_by_hand():
    # 5 names x 4 ops + take = 21 atoms; 5 loops x 2 inits x 2 yields = 20 frames. Size 1: one
    # atom, 21 x 20 = 420. Size 2: a guard (5) of one atom, or two atoms: (5 x 21 + 21 x 21) x 20.
    assert (len(I.ATOMS), len(I.FRAMES)) == (21, 20)
    assert I.count(1) == 420
    assert I.count(2) == (5 * 21 + 21 * 21) * 20 == 10920
    sources = [p.source for p in I.programs(1)]
    assert len(sources) == len(set(sources)) == 420
    assert sum(1 for _ in I.programs(2)) == 10920


def test_a_nest_renders_the_inner_bound_and_the_outer_guard():
    prog = I.build(I.Frame("nest", "n", "pp", "swap"), (("if_odd", ("atom",)), "atom"),
                   (_a("up", "c0"), _a("take", "m")))
    assert _tail(prog) == [
        "        for i, (c0, c1) in pl.range(n, init_values=(p, p)):",
        "            for j, (e0, e1) in pl.range(i, init_values=(c0, c1)):",
        "                m = pl.create_tensor([4, 4], dtype=pl.FP32, init_value=1.0)",
        "                if i % 2 == 1:",
        "                    e0 = self.up(e0)",
        "                e0 = m",
        "                c0, c1 = pl.yield_(e1, e0)",
        "            d0, d1 = pl.yield_(c0, c1)",
        "        f1, k2 = pl.submit(self.rd, d0)",
        "        f3, k4 = pl.submit(self.rd, d1)",
        "        h5 = pl.tensor.read(d0, [1, 1])",
        "        pl.tensor.write(sink, [15], h5)",
        "        w = self.up(w)",
        "        return a"]
    assert prog.settings == I.N_SETTINGS


def test_a_while_and_the_tensor_made_before_it_render():
    prog = I.build(I.Frame("while", "n", "pq", "keep"), (("if_lt2", ("atom",)),), (_a("hw", "o"),))
    assert _tail(prog)[:6] == [
        "        o = pl.create_tensor([4, 4], dtype=pl.FP32, init_value=2.0)",
        "        for (i, c0, c1) in pl.while_(init_values=(0, p, q)):",
        "            pl.cond(i < n)",
        "            if i < 2:",
        "                pl.tensor.write(o, [1, 1], 3.0)",
        "            n_done, d0, d1 = pl.yield_(i + 1, c0, c1)"]
    assert I.build(I.Frame("parallel", 2, "pq", "keep"), ("atom",), (0,)).settings == I.ONE_SETTING


SWAP_UP = I.build(I.Frame("range", "n", "pq", "swap"), ("atom",), (_a("up", "c0"),))


def test_a_swapped_carry_writes_p_and_q_in_turn_by_hand():
    # up(c0); swap. n = 2: #0 up(p), #1 up(q); two swaps: d0 = p, d1 = q; #2 rd(p) sees #0,
    # #3 rd(q) sees #1, #4 host read of p sees #0, #5 its sink write, #6 up(w) sees w's own.
    seq = _seq(SWAP_UP, 2)
    assert [ev.accesses[0].buf for ev in seq.events[:4]] == ["ext:p", "ext:q", "ext:p", "ext:q"]
    assert [_stamps(seq.events[k]) for k in (2, 3, 4, 6)] == [{("ev", 0)}, {("ev", 1)}, {("ev", 0)},
                                                              {("ext", "w")}]
    # n = 3: #2 up(p) again; three swaps: d0 = q (#1), d1 = p (#2).
    seq = _seq(SWAP_UP, 3)
    assert [_stamps(seq.events[k]) for k in (3, 4, 5)] == [{("ev", 1)}, {("ev", 2)}, {("ev", 1)}]
    assert seq.memory[("ext:p", 0)] == ("ev", 2) and seq.memory[("ext:q", 0)] == ("ev", 1)
    # n = 0: the results are the parameters, never written.
    seq = _seq(SWAP_UP, 0)
    assert [_stamps(seq.events[k]) for k in (0, 1, 2)] == [{("ext", "p")}, {("ext", "q")}, {("ext", "p")}]


def test_two_carries_started_as_one_tensor_by_hand():
    # init (p, p), keep, range(2): rd(c1); up(c0). #0 rd(p) sees p's own, #1 up(p), #2 rd(p) sees
    # #1, #3 up(p) (sees #1), then rd(d0 = p) #4 and rd(d1 = p) #5 see #3; host read #6 sees #3.
    prog = I.build(I.Frame("range", 2, "pp", "keep"), ("atom", "atom"), (_a("rd", "c1"), _a("up", "c0")))
    seq = _seq(prog)
    assert [_stamps(seq.events[k]) for k in range(7)] == [
        {("ext", "p")}, {("ext", "p")}, {("ev", 1)}, {("ev", 1)}, {("ev", 3)}, {("ev", 3)}, {("ev", 3)}]
    pairs = oracle.sequential_conflicts(seq)
    assert sorted(pairs[(0, 1)]) == ["WAR"] and sorted(pairs[(2, 3)]) == ["WAR"]
    assert sorted(pairs[(1, 3)]) == ["RAW", "WAR", "WAW"] and sorted(pairs[(3, 5)]) == ["RAW"]


def test_a_tensor_made_in_the_body_is_new_each_iteration_by_hand():
    # rd(c0); c0 = m; range(n), n = 2: #0 rd(p); c0 = m0; #1 rd(m0) sees m0's fill; c0 = m1;
    # after the loop #2 rd(d0 = m1) sees m1's fill (not m0's buffer), #3 rd(d1 = q).
    prog = I.build(I.Frame("range", "n", "pq", "keep"), ("atom", "atom"), (_a("rd", "c0"), _a("take", "m")))
    seq = _seq(prog, 2)
    bufs = [ev.accesses[0].buf for ev in seq.events[:4]]
    assert bufs[0] == "ext:p" and bufs[3] == "ext:q" and bufs[1] != bufs[2]
    assert [_stamps(seq.events[k]) for k in range(4)] == [{("ext", "p")}, {("fill",)}, {("fill",)}, {("ext", "q")}]


def test_a_nest_whose_inner_bound_is_the_outer_counter_by_hand():
    # nest over n = 3, inner range(i), up(e0), inner swap: i = 0 runs nothing; i = 1: #0 up(p),
    # (c0, c1) = (q, p); i = 2: #1 up(q), #2 up(p) (sees #0), back to (q, p). d0 = q, d1 = p:
    # #3 rd(q) sees #1, #4 rd(p) sees #2, #5 the host read of q sees #1.
    prog = I.build(I.Frame("nest", "n", "pq", "swap"), ("atom",), (_a("up", "c0"),))
    seq = _seq(prog, 3)
    assert [ev.accesses[0].buf for ev in seq.events[:5]] == ["ext:p", "ext:q", "ext:p", "ext:q", "ext:p"]
    assert [_stamps(seq.events[k]) for k in (2, 3, 4, 5)] == [{("ev", 0)}, {("ev", 1)}, {("ev", 2)}, {("ev", 1)}]


def test_guards_on_the_counter_by_hand():
    # range(n), n = 3, one guarded up(c0) each: which iterations run it.
    for guard, iters in (("if_0", [0]), ("if_ge1", [1, 2]), ("if_lt2", [0, 1]), ("if_odd", [1]),
                         ("if_gt0", [1, 2])):
        prog = I.build(I.Frame("range", "n", "pq", "keep"), ((guard, ("atom",)),), (_a("up", "c0"),))
        seq = _seq(prog, 3)
        assert sum(1 for ev in seq.events if ev.kernel == "up" and ev.accesses[0].buf == "ext:p") == len(iters)


def test_parallel_iterations_are_waived():
    # pl.parallel(2): up(w) in both iterations: independent (docs/semantics.md), the pair waived.
    prog = I.build(I.Frame("parallel", 2, "pq", "keep"), ("atom",), (_a("up", "w"),))
    seq = _seq(prog)
    assert semantics.independent(seq.events[0], seq.events[1])
    assert not semantics.independent(seq.events[1], seq.events[2])


WAR_LOOP = I.build(I.Frame("range", 2, "pq", "keep"), ("atom", "atom"), (_a("rd", "c0"), _a("up", "c0")))


@needs_gxx
def test_the_oracle_fails_when_a_recorded_ordering_is_removed():
    # rd(c0); up(c0) twice on p: the InOut writer #1 waits for the reader #0 only by the compiler's
    # explicit dependency (readers are never recorded in the TensorMap, runtime-api.md 11). With the
    # dependencies of that submit removed from the log, the pair is a hazard.
    rep, runs = runner.recorded(WAR_LOOP)
    assert not rep.classes() and rep.runs == 1
    seq, log, ids = runs[0]
    assert oracle.check_run(seq, log, ids) == []
    submits = [k for k, ev in enumerate(log) if ev["ev"] == "submit"]
    second = submits[1]
    assert log[second]["deps"], "the first iteration's writer of p waits for the reader explicitly"
    edited = [dict(ev) for ev in log]
    edited[second]["deps"] = []
    fails = oracle.check_run(seq, edited, ids)
    assert any(f.cls.startswith("hazard WAR task>task") for f in fails), fails


@needs_gxx
def test_the_oracle_fails_on_a_compilation_that_ignores_the_swap():
    # The C++ of the loop that keeps its carries, judged as the swap loop: at n = 2 it writes p
    # twice, the swap loop p then q, so the reads of d0 and d1 observe other writes.
    keep = I.build(I.Frame("range", "n", "pq", "keep"), ("atom",), (_a("up", "c0"),))
    _, runs = runner.recorded(keep)
    _, log, ids = runs[2]
    fails = oracle.check_run(_seq(SWAP_UP, 2), log, ids)
    assert any(f.cls.startswith("value") for f in fails), fails


@needs_gxx
def test_a_guarded_writer_under_a_swap_passes():
    # The second iteration writes the tensor the first one's reader read (init (p, p) and swap).
    for lp, trip in (("while", "n"), ("nest", "n")):
        prog = I.build(I.Frame(lp, trip, "pp", "swap"), (("if_odd", ("atom",)), "atom"),
                       (_a("up", "c1"), _a("rd", "c0")))
        rep = prog.check()
        assert not rep.classes(), runner.describe(rep)
        assert rep.lean is not None and rep.lean["unordered"] == 0


def test_random_programs_are_reproducible_and_within_the_grammar():
    progs = [I.generate(4905 + k) for k in range(40)]
    assert [p.source for p in progs] == [I.generate(4905 + k).source for k in range(40)]
    loops = set()
    for prog in progs:
        loop = next(s for s in prog.body if isinstance(s, (P.Loop, I.While)))
        loops.add(type(loop).__name__ + (loop.kind if isinstance(loop, P.Loop) else ""))
        for n, c in prog.settings:
            _seq(prog, n)
    assert loops == {"Looprange", "Loopparallel", "While"}


def test_a_nest_with_a_reader_around_the_inner_loop_by_hand():
    # nest over n = 3, keep: rd(c0) in the outer body, up(e0) in the inner range(i). i = 0: #0 rd(p)
    # sees p's own, the inner loop runs nothing; i = 1: #1 rd(p) sees p's own, #2 up(p); i = 2:
    # #3 rd(p) sees #2, #4 up(p) sees #2, #5 up(p) sees #4; after it #6 rd(d0 = p) sees #5,
    # #7 rd(d1 = q) sees q's own.
    prog = I.build(I.Frame("nest", "n", "pq", "keep"), ("atom", ("inner", ("atom",))),
                   (_a("rd", "c0"), _a("up", "c0")))
    assert _tail(prog)[:5] == [
        "        for i, (c0, c1) in pl.range(n, init_values=(p, q)):",
        "            f1, k2 = pl.submit(self.rd, c0)",
        "            for j, (e0, e1) in pl.range(i, init_values=(c0, c1)):",
        "                e0 = self.up(e0)",
        "                c0, c1 = pl.yield_(e0, e1)"]
    seq = _seq(prog, 3)
    assert [_stamps(seq.events[k]) for k in range(8)] == [
        {("ext", "p")}, {("ext", "p")}, {("ext", "p")}, {("ev", 2)}, {("ev", 2)}, {("ev", 4)}, {("ev", 5)},
        {("ext", "q")}]
    pairs = oracle.sequential_conflicts(seq)
    assert sorted(pairs[(0, 2)]) == ["WAR"] and sorted(pairs[(3, 4)]) == ["WAR"]
