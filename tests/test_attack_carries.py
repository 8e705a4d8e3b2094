"""The adversarial tester's carries grammar (tools/attack/carries.py): one AUTO loop with two or
three tensor carries kept, swapped or rotated, carry accesses in the body (some guarded), and
accesses of every result and parameter after the loop. Its counts and conflicting pairs are
computed here by hand (shared/spec/runtime-api.md section 11, docs/semantics.md), and the oracle
is shown to fail on a recorded run with an ordering removed."""

from __future__ import annotations

import shutil

import pytest

from nanopass.tools.attack import carries as C
from nanopass.tools.attack import oracle, runner, semantics
from nanopass.tools.attack import program as P

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
A2, A3 = C.atoms(2), C.atoms(3)


def test_size_one_has_its_count_by_hand():
    # Two carries: 10 atoms (rd, wr, up, hr of each, mv both ways); swapping the carries commutes
    # with both yields and fixes no atom: 5 classes a frame, 2 yields x 3 trips x 2 posts = 12
    # frames. Three carries, 18 atoms: `keep` commutes with all 6 renamings (rd, wr, up, mv, hr:
    # 5 classes); `swap` (of c0 and c1) with that swap alone (rd, wr, up, hr: {0, 1} and {2};
    # mv: 3 pairs of pairs: 11 classes); `rotate` with the rotations (1 of each, mv's 6 in 2:
    # 6 classes); 6 frames each.
    assert (len(A2), len(A3)) == (10, 18)
    assert C.count(1) == 12 * 5 + 6 * (5 + 11 + 6) == 192
    names = [P.render(p).source for p in C.programs(1)]
    assert len(names) == len(set(names)) == 192


def test_a_program_renders_its_loop_and_the_accesses_after_it():
    prog = C.build(C.Frame(3, "rotate", "n", "wr"), (("if_i1", ("atom",)), "atom"),
                   (A3.index(("rd", 0)), A3.index(("mv", 1, 2))))
    body = P.render(prog).source.split("-> pl.Tensor[[8, 4], pl.FP32]:\n")[-1].splitlines()
    assert body[:5] == ["        for i, (c0, c1, c2) in pl.range(n, init_values=(p, q, r)):",
                        "            if i >= 1:",
                        "                f1, k2 = pl.submit(self.rd, c0)",
                        "            c2 = self.rd(c1, c2)",
                        "            d0, d1, d2 = pl.yield_(c1, c2, c0)"]
    assert body[5:8] == ["        d0 = self.wr(d0)", "        d1 = self.wr(d1)", "        d2 = self.wr(d2)"]
    assert [ln.split(" = ")[1] for ln in body[8:11]] == [f"pl.submit(self.rd, {t})" for t in "pqr"]
    assert prog.settings == C.N_SETTINGS
    assert C.build(C.Frame(2, "keep", 3, "rw"), ("atom",), (0,)).settings == C.ONE_SETTING


def _pairs(prog, n):
    rendered = P.render(prog)
    seq = semantics.run(prog, rendered.lines, n, 0)
    return {k: sorted(v) for k, v in oracle.sequential_conflicts(seq).items()}


SWAP_READ_WRITE = C.build(C.Frame(2, "swap", 2, "rw"), ("atom", "atom"), (A2.index(("rd", 0)), A2.index(("wr", 1))))


def test_the_pairs_of_a_swap_loop_by_hand():
    # rd(c0); wr(c1); swap, twice. Events: 0 rd(p), 1 wr(q) | 2 rd(q), 3 wr(p) | after the loop
    # (two swaps: d0 = p, d1 = q) 4 rd(p), 5 rd(q), 6 wr(p), 7 wr(q). On p: 0 R, 3 W, 4 R, 6 W;
    # on q: 1 W, 2 R, 5 R, 7 W.
    # The same body over `n`: at n = 2 the same pairs; at n = 0 only rd(p), rd(q), wr(p), wr(q).
    twice = {(0, 3): ["WAR"], (0, 6): ["WAR"], (3, 4): ["RAW"], (3, 6): ["WAW"], (4, 6): ["WAR"],
             (1, 2): ["RAW"], (1, 5): ["RAW"], (1, 7): ["WAW"], (2, 7): ["WAR"], (5, 7): ["WAR"]}
    assert _pairs(SWAP_READ_WRITE, 0) == twice
    over_n = C.build(C.Frame(2, "swap", "n", "rw"), ("atom", "atom"), (A2.index(("rd", 0)), A2.index(("wr", 1))))
    assert _pairs(over_n, 2) == twice
    assert _pairs(over_n, 0) == {(0, 2): ["WAR"], (1, 3): ["WAR"]}


def test_the_pairs_of_a_rotation_with_a_guarded_update_and_host_reads_by_hand():
    # if i == 0: up(c0); hr(c2); rotate; n = 2. Events: 0 up(p), 1 read r[1, 1], 2 its write of
    # sink[1] | 3 read p[1, 1], 4 sink[1] | two rotations: (d0, d1, d2) = (r, p, q): 5 wr(r),
    # 6 wr(p), 7 wr(q), then 8 rd(p), 9 rd(q), 10 rd(r).
    prog = C.build(C.Frame(3, "rotate", "n", "wr"), (("if_i0", ("atom",)), "atom"),
                   (A3.index(("up", 0)), A3.index(("hr", 2))))
    assert _pairs(prog, 2) == {
        (0, 3): ["RAW"], (0, 6): ["WAR", "WAW"], (0, 8): ["RAW"], (3, 6): ["WAR"], (6, 8): ["RAW"],
        (1, 5): ["WAR"], (5, 10): ["RAW"], (7, 9): ["RAW"], (2, 4): ["WAW"]}


@needs_gxx
def test_the_oracle_fails_when_a_recorded_ordering_is_removed():
    # The swap loop's wr(p) of the second iteration (event 3) writes p Out: the runtime orders it
    # after nothing but its creator (OUTPUT_EXISTING: no lookup, and readers are never recorded),
    # so its order after event 0, rd(p), is the compiler's explicit dependency. The recorded run
    # passes; with that submit's dependencies removed from the log, the pair is a hazard.
    rep, runs = runner.recorded(SWAP_READ_WRITE)
    assert not rep.classes() and rep.runs == 1
    seq, log, ids = runs[0]
    assert oracle.check_run(seq, log, ids) == []
    submits = [k for k, ev in enumerate(log) if ev["ev"] == "submit"]
    fourth = submits[3]
    assert log[fourth]["deps"], "the second iteration's writer of p waits for the reader explicitly"
    edited = [dict(ev) for ev in log]
    edited[fourth]["deps"] = []
    fails = oracle.check_run(seq, edited, ids)
    assert any(f.cls == "hazard WAR task>task AA" and "line 17" in f.detail and "line 18" in f.detail
               for f in fails), fails


@needs_gxx
def test_a_program_reports_the_lean_figures_of_its_runs():
    # One iteration structure per n in 0..3 (n > 1 guard): `mv(0, 1)` reads c0 and writes c1 Out;
    # the figures are lean.py's on the same runs, no needed pair left unordered.
    prog = C.build(C.Frame(2, "swap", "n", "wr"), ("atom",), (A2.index(("mv", 0, 1)),))
    rep = prog.check()
    assert not rep.classes() and rep.runs == 4
    assert set(rep.lean) == {"insertions", "minimum", "redundant", "implied", "dummies", "unordered"}
    assert rep.lean["unordered"] == 0 and rep.lean["insertions"] >= rep.lean["minimum"] > 0


def test_random_programs_are_reproducible_and_within_the_grammar():
    progs = [C.generate(4420 + k) for k in range(40)]
    assert [P.render(p).source for p in progs] == [P.render(C.generate(4420 + k)).source for k in range(40)]
    for prog in progs:
        loop = prog.body[0]
        assert isinstance(loop, P.Loop) and len(loop.carries) in (2, 3)
        assert 3 <= P.count_statements(loop.body) <= 6
