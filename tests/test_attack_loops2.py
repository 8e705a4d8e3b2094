"""The adversarial tester's loops2 grammar (tools/attack/loops2.py): a `pl.while_` loop or two
nested `pl.range` loops over one to three tensor carries, kept, swapped or rotated at either
level, with bodies guarded by first-iteration and parity tests. Its counts and conflicting pairs
are computed here by hand (shared/spec/runtime-api.md section 11, docs/semantics.md), and the
oracle is shown to fail on a recorded run with an ordering removed."""

from __future__ import annotations

import shutil

import pytest

from nanopass.tools.attack import loops2 as L
from nanopass.tools.attack import oracle, runner, semantics
from nanopass.tools.attack import program as P

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
A1, A2, A3 = L.atoms(1), L.atoms(2), L.atoms(3)


def test_the_counts_by_hand():
    # Atoms: carries.py's (one carry 4: rd, wr, up, hr; two 10; three 18) and pr, pw, pu of each
    # parameter: 7, 16, 27. Renaming classes per yield: k = 2, any yields: the swap of c0, c1
    # (with p, q) commutes and fixes no atom: 8 classes. k = 3: keep alone: all six renamings, one
    # class per operation: 8; with a swap, that swap: each one-index operation's 3 atoms in 2
    # classes, mv's 6 in 3: 7 * 2 + 3 = 17; with a rotation, the rotations: 7 + 2 = 9; a swap
    # and a rotation: the identity alone, 27.
    # Size 1, while (one atom; 6 yields x 2 posts): 2 * (7 + 8 + 8 + 8 + 17 + 9) = 114. Nest (the
    # inner loop with an empty body, size 1; no atom: one program a frame): k = 1: 1, k = 2: 4,
    # k = 3: 9 yield pairs, x 2 posts = 28.
    assert (len(A1), len(A2), len(A3)) == (7, 16, 27)
    assert len(L.frames("while")) == 12 and len(L.frames("nest")) == 28
    assert L.count(1) == 114 + 28 == 142
    # Size 2, the nest `inner(atom)`: per post k = 1: 7; k = 2: 4 pairs x 8; k = 3: keep/keep 8,
    # the three pairs of keep and swap 17 each, the three of keep and rotate 9 each, swap/rotate
    # and rotate/swap 27 each: 8 + 51 + 27 + 54 = 140; (7 + 32 + 140) * 2 = 358. The while's four
    # guards of one atom: 4 * 114.
    assert L.count(2, patterns=["inner(atom)"]) == 358
    assert L.count(2, patterns=["if_0(atom)", "if_1(atom)", "if_ev(atom)", "if_od(atom)"]) == 4 * 114
    names = [P.render(p).source for p in L.programs(1)]
    assert len(names) == len(set(names)) == 142


def _tail(prog) -> list:
    return P.render(prog).source.split("-> pl.Tensor[[8, 4], pl.FP32]:\n")[-1].splitlines()


def test_a_nest_renders_both_loops_and_the_guards():
    prog = L.build(L.Frame("nest", 2, "swap", "keep", "rw"),
                   (("if_ev", ("atom",)), ("inner", (("outer_0", ("atom",)), ("if_od", ("atom",)))), "atom"),
                   (A2.index(("rd", 0)), A2.index(("up", 1)), A2.index(("mv", 0, 1)), A2.index(("wr", 0))))
    assert _tail(prog)[:13] == [
        "        for i, (c0, c1) in pl.range(n, init_values=(p, q)):",
        "            if i % 2 == 0:",
        "                f1, k2 = pl.submit(self.rd, c0)",
        "            for j, (e0, e1) in pl.range(c, init_values=(c0, c1)):",
        "                if i == 0:",
        "                    e1 = self.up(e1)",
        "                if j % 2 == 1:",
        "                    e1 = self.rd(e0, e1)",
        "                c0, c1 = pl.yield_(e0, e1)",
        "            c0 = self.wr(c0)",
        "            d0, d1 = pl.yield_(c1, c0)",
        "        f3, k4 = pl.submit(self.rd, d0)",
        "        f5, k6 = pl.submit(self.rd, d1)"]
    assert prog.settings == tuple((n, c) for n in range(4) for c in range(4))


def test_a_while_renders_its_condition_and_counter():
    prog = L.build(L.Frame("while", 3, "rotate", None, "wr"), (("if_1", ("atom",)),), (A3.index(("hr", 2)),))
    assert _tail(prog)[:6] == [
        "        for (i, c0, c1, c2) in pl.while_(init_values=(0, p, q, r)):",
        "            pl.cond(i < n)",
        "            if i >= 1:",
        "                h1 = pl.tensor.read(c2, [1, 1])",
        "                pl.tensor.write(sink, [1], h1)",
        "            n_done, d0, d1, d2 = pl.yield_(i + 1, c1, c2, c0)"]
    assert prog.settings == tuple((n, 0) for n in range(5))


def test_the_parameter_atoms_name_the_parameters_in_every_body():
    prog = L.build(L.Frame("nest", 2, "swap", "swap", "wr"), ("atom", ("inner", ("atom",)), "atom"),
                   (A2.index(("pr", 1)), A2.index(("pu", 0)), A2.index(("pw", 1))))
    assert _tail(prog)[1:6] == [
        "            f1, k2 = pl.submit(self.rd, q)",
        "            for j, (e0, e1) in pl.range(c, init_values=(c0, c1)):",
        "                p = self.up(p)",
        "                c0, c1 = pl.yield_(e1, e0)",
        "            q = self.wr(q)"]


def _pairs(prog, n, c=0):
    rendered = P.render(prog)
    seq = semantics.run(prog, rendered.lines, n, c)
    return {k: sorted(v) for k, v in oracle.sequential_conflicts(seq).items()}


# `if i % 2 == 0: wr(c0)` in a while that swaps its two carries; then rd(d0), rd(d1), wr(p), wr(q).
EVEN_WRITER = L.build(L.Frame("while", 2, "swap", None, "rw"), (("if_ev", ("atom",)),), (A2.index(("wr", 0)),))


def test_the_pairs_of_a_parity_guard_under_a_swap_by_hand():
    # The swap puts p in c0 on even iterations: every write is to p. n = 3: 0 wr(p) (i = 0),
    # 1 wr(p) (i = 2); three swaps: d0 = q, d1 = p: 2 rd(q), 3 rd(p), 4 wr(p), 5 wr(q).
    assert _pairs(EVEN_WRITER, 3) == {(0, 1): ["WAW"], (0, 3): ["RAW"], (0, 4): ["WAW"], (1, 3): ["RAW"],
                                      (1, 4): ["WAW"], (3, 4): ["WAR"], (2, 5): ["WAR"]}
    # n = 2: 0 wr(p); d0 = p: 1 rd(p), 2 rd(q), 3 wr(p), 4 wr(q). n = 0: no write in the loop.
    assert _pairs(EVEN_WRITER, 2) == {(0, 1): ["RAW"], (0, 3): ["WAW"], (1, 3): ["WAR"], (2, 4): ["WAR"]}
    assert _pairs(EVEN_WRITER, 0) == {(0, 2): ["WAR"], (1, 3): ["WAR"]}


def test_the_pairs_of_a_parameter_a_swapped_carry_names_every_other_iteration_by_hand():
    # mv(0, 1) (c1 = rd(c0, c1)) and pu(0) (p = up(p)) in a while that swaps: c0 is p in the even
    # iterations, q in the odd ones. n = 2: 0 rd(p -> q), 1 up(p) | 2 rd(q -> p), 3 up(p); two
    # swaps, d0 = p: 4 rd(p), 5 rd(q), 6 wr(p), 7 wr(q). On p: 0 R, 1 RW, 2 W, 3 RW, 4 R, 6 W;
    # on q: 0 W, 2 R, 5 R, 7 W.
    prog = L.build(L.Frame("while", 2, "swap", None, "rw"), ("atom", "atom"),
                   (A2.index(("mv", 0, 1)), A2.index(("pu", 0))))
    assert _pairs(prog, 2) == {
        (0, 1): ["WAR"], (0, 2): ["RAW", "WAR"], (0, 3): ["WAR"], (0, 5): ["RAW"], (0, 6): ["WAR"],
        (0, 7): ["WAW"], (1, 2): ["WAR", "WAW"], (1, 3): ["RAW", "WAR", "WAW"], (1, 4): ["RAW"],
        (1, 6): ["WAR", "WAW"], (2, 3): ["RAW", "WAW"], (2, 4): ["RAW"], (2, 6): ["WAW"], (2, 7): ["WAR"],
        (3, 4): ["RAW"], (3, 6): ["WAR", "WAW"], (4, 6): ["WAR"], (5, 7): ["WAR"]}
    # n = 1: 0 rd(p -> q), 1 up(p); one swap, d0 = q: 2 rd(q), 3 rd(p), 4 wr(p), 5 wr(q).
    assert _pairs(prog, 1) == {(0, 1): ["WAR"], (0, 4): ["WAR"], (1, 3): ["RAW"], (1, 4): ["WAR", "WAW"],
                               (3, 4): ["WAR"], (0, 2): ["RAW"], (0, 5): ["WAW"], (2, 5): ["WAR"]}


def test_the_pairs_of_an_inner_swap_by_the_parity_of_its_trip_count_by_hand():
    # Outer keep, inner swap with an empty body, then wr(c0) after it: the inner loop swaps the
    # carries when c is odd, so the outer iterations alternate q, p; when c is even, p, p.
    prog = L.build(L.Frame("nest", 2, "keep", "swap", "rw"), (("inner", ()), "atom"), (A2.index(("wr", 0)),))
    # n = 2, c = 1: 0 wr(q), 1 wr(p); d0 = p, d1 = q: 2 rd(p), 3 rd(q), 4 wr(p), 5 wr(q).
    assert _pairs(prog, 2, 1) == {(1, 2): ["RAW"], (1, 4): ["WAW"], (2, 4): ["WAR"],
                                  (0, 3): ["RAW"], (0, 5): ["WAW"], (3, 5): ["WAR"]}
    # n = 2, c = 2: 0 wr(p), 1 wr(p); 2 rd(p), 3 rd(q), 4 wr(p), 5 wr(q).
    assert _pairs(prog, 2, 2) == {(0, 1): ["WAW"], (0, 2): ["RAW"], (0, 4): ["WAW"], (1, 2): ["RAW"],
                                  (1, 4): ["WAW"], (2, 4): ["WAR"], (3, 5): ["WAR"]}


def test_a_first_iteration_guard_of_the_outer_loop_inside_the_inner_one_by_hand():
    # Outer swap, inner keep; in the inner loop `if i == 0: rd(e0)`, then wr(e0) unguarded:
    # n = 2, c = 2: i = 0 (c0 = p): 0 rd(p), 1 wr(p), 2 rd(p), 3 wr(p); i = 1 (c0 = q): 4 wr(q),
    # 5 wr(q); d0 = p, d1 = q: 6 wr(p), 7 wr(q), then 8 rd(p), 9 rd(q) (post `wr`).
    prog = L.build(L.Frame("nest", 2, "swap", "keep", "wr"), (("inner", (("outer_0", ("atom",)), "atom")),),
                   (A2.index(("rd", 0)), A2.index(("wr", 0))))
    on_p = {(0, 1): ["WAR"], (0, 3): ["WAR"], (0, 6): ["WAR"], (1, 2): ["RAW"], (1, 3): ["WAW"],
            (1, 6): ["WAW"], (1, 8): ["RAW"], (2, 3): ["WAR"], (2, 6): ["WAR"], (3, 6): ["WAW"],
            (3, 8): ["RAW"], (6, 8): ["RAW"]}
    on_q = {(4, 5): ["WAW"], (4, 7): ["WAW"], (4, 9): ["RAW"], (5, 7): ["WAW"], (5, 9): ["RAW"], (7, 9): ["RAW"]}
    assert _pairs(prog, 2, 2) == {**on_p, **on_q}


@needs_gxx
def test_the_oracle_fails_when_a_recorded_ordering_is_removed():
    # EVEN_WRITER at n = 3 (the fourth run): after the loop `p = self.wr(p)` (event 4) writes p
    # Out after `rd(d1)` (event 3) read it: the runtime records no reader (no WAR tracking), so
    # that order is the compiler's explicit dependency. The recorded run passes; with that
    # submit's dependencies removed from the log, the pair is a hazard, and the latest-first
    # order runs the write before the read, which then observes it.
    rep, runs = runner.recorded(EVEN_WRITER)
    assert not rep.classes() and rep.runs == 5
    seq, log, ids = runs[3]
    assert oracle.check_run(seq, log, ids) == []
    submits = [k for k, ev in enumerate(log) if ev["ev"] == "submit"]
    assert len(submits) == 6
    fifth = submits[4]
    assert log[fifth]["deps"], "the writer of p after the loop waits for its reader explicitly"
    edited = [dict(ev) for ev in log]
    edited[fifth]["deps"] = []
    fails = oracle.check_run(seq, edited, ids)
    classes = {f.cls for f in fails}
    assert "hazard WAR task>task AA" in classes, fails
    assert "value task latest-first" in classes, fails


@needs_gxx
def test_a_program_reports_the_lean_figures_of_its_runs():
    # The nest of test_a_first_iteration_guard...: 16 runs (n, c in 0..3), none leaving a needed
    # pair unordered.
    prog = L.build(L.Frame("nest", 2, "swap", "keep", "wr"), (("inner", (("outer_0", ("atom",)), "atom")),),
                   (A2.index(("rd", 0)), A2.index(("wr", 0))))
    rep = prog.check()
    assert not rep.classes() and rep.runs == 16
    assert rep.lean["unordered"] == 0 and rep.lean["insertions"] >= rep.lean["minimum"] > 0


def test_random_programs_are_reproducible_and_within_the_grammar():
    progs = [L.generate(4660 + k) for k in range(40)]
    assert [P.render(p).source for p in progs] == [P.render(L.generate(4660 + k)).source for k in range(40)]
    kinds = set()
    for prog in progs:
        loop = prog.body[0]
        kinds.add(type(loop).__name__)
        assert len(loop.carries) in (1, 2, 3)
        if isinstance(loop, P.Loop):
            inner = [s for s in loop.body if isinstance(s, P.Loop)]
            assert len(inner) == 1 and inner[0].trip == "c"
    assert kinds == {"While", "Loop"}


def test_constant_trips_render_and_leave_only_the_scalars_settings():
    frame = L.Frame("nest", 1, "keep", "keep", "rw", trips=(3, "c"))
    prog = L.build(frame, (("inner", ("atom",)),), (A1.index(("up", 0)),))
    assert _tail(prog)[:2] == ["        for i, (c0,) in pl.range(3, init_values=(p,)):",
                               "            for j, (e0,) in pl.range(c, init_values=(c0,)):"]
    assert prog.settings == tuple((0, c) for c in range(4))
    loop = L.build(L.Frame("while", 1, "keep", None, "rw", trips=(2, "c")), ("atom",), (0,))
    assert _tail(loop)[:2] == ["        for (i, c0) in pl.while_(init_values=(0, p)):", "            pl.cond(i < 2)"]
    assert loop.settings == ((0, 0),)
    # n = 3 trips of `up(p)`, whatever the settings' n: three updates of p, then rd(p), wr(p)
    assert sorted(_pairs(prog, 0, 1)) == [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4),
                                          (2, 3), (2, 4), (3, 4)]
    loops = [L.generate_constant_trips(4660 + k).body[0] for k in range(60)]
    trips = {loop.bound if isinstance(loop, L.While) else loop.trip for loop in loops}
    assert trips == {"n", 2, 3, 4}
