"""The adversarial tester's nests grammar (tools/attack/nests.py): an inner loop and a further
loop after it inside an outer loop, AUTO or in a manual scope, the user's TaskIds carried through
the nest. Counts, the tasks' buffers, the writes each read observes and the tasks each `deps=`
stands for are computed here by hand (shared/spec/runtime-api.md section 11, docs/semantics.md);
the oracle is shown to fail on recorded runs with a compiler edge removed and with a user's
`deps=` entry removed."""

from __future__ import annotations

import shutil

import pytest

from nanopass.tools.attack import nests as N
from nanopass.tools.attack import cli, oracle, runner, semantics
from nanopass.tools.attack import program as P
from nanopass.tools.attack import rtmodel as R

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")


def _seq(prog, n=0):
    return semantics.run(prog, P.render(prog).lines, n, 0)


def _tail(prog) -> list:
    return P.render(prog).source.split("-> pl.Tensor[[8, 4], pl.FP32]:\n")[-1].splitlines()


def _stamps(ev, pos=0) -> set:
    """The writes an access of `ev` observes: ("ev", k) or ("ext", param)."""
    return {st if st[0] == "ev" else st[:2] for st in ev.reads[pos]}


def test_the_counts_by_hand():
    # Atoms: inner 13 (+ tup, trd in AUTO: 15), mid 7 (+ tup: 8), further 12 (+ 2 trd: 14).
    # Frames: 2 outer trips x 4 inner loops x 2 scopes = 16, 8 AUTO and 8 manual.
    # Size 1: 8 x (15 + 8 + 14) + 8 x (13 + 7 + 12) = 296 + 256 = 552.
    assert (len(N.FRAMES), len(N.atoms("inner", "auto")), len(N.atoms("mid", "auto")),
            len(N.atoms("further", "auto"))) == (16, 15, 8, 14)
    assert N.count(1) == 552
    sources = [p.source for p in N.programs(1)]
    assert len(sources) == len(set(sources)) == 552
    # Size 2: two atoms in region order (I, M, F: I*I + M*M + F*F + I*M + I*F + M*F) and a
    # branch (4 kinds) of one inner or further atom (4 * I + 4 * F). AUTO: 225 + 64 + 196 + 120 +
    # 210 + 112 + 60 + 56 = 1043; manual: 169 + 49 + 144 + 91 + 156 + 84 + 52 + 48 = 793.
    assert N.count(2) == 8 * 1043 + 8 * 793 == 14688
    assert cli.GRAMMARS["nests"] is N


def test_an_auto_nest_renders_its_loops_and_the_waiter_in_a_branch():
    prog = N.build(N.Frame("n", 3, "auto"), inner=(("up", "s"),),
                   further=(("branch", "last", (("rd", "s"),)),))
    assert _tail(prog) == [
        "        for i, (c0, c1) in pl.range(n, init_values=(p, q)):",
        "            for j, (e0, e1) in pl.range(3, init_values=(c0, c1)):",
        "                s = pl.tensor.slice(g, [4, 4], [j * 4, 0])",
        "                s = self.up(s)",
        "                c0, c1 = pl.yield_(e0, e1)",
        "            for k, (f0, f1) in pl.range(2, init_values=(c0, c1)):",
        "                z = pl.tensor.slice(g, [4, 4], [k * 4, 0])",
        "                if k == 1:",
        "                    r1, id2 = pl.submit(self.rd, z)",
        "                c0, c1 = pl.yield_(f0, f1)",
        "            d0, d1 = pl.yield_(c0, c1)",
        "        f_d0, k_d0 = pl.submit(self.rd, d0)",
        "        f_d1, k_d1 = pl.submit(self.rd, d1)",
        "        f_g, k_g = pl.submit(self.rdg, g)",
        "        h_d0 = pl.tensor.read(d0, [1, 1])",
        "        pl.tensor.write(sink, [15], h_d0)",
        "        w = self.up(w)",
        "        return a"]
    assert prog.settings == N.N_SETTINGS
    assert N.build(N.Frame(2, 2, "auto"), inner=(("rd", "x"),)).settings == N.ONE_SETTING


def test_a_manual_nest_chains_every_task_on_a_carried_taskid():
    prog = N.build(N.Frame(2, "while", "manual"), inner=(("new", "x"),), further=(("branch", "else", (("hr", "x"),)),))
    assert _tail(prog)[:16] == [
        "        with pl.manual_scope():",
        "            t0 = None",
        "            for i, (c0, c1, t) in pl.range(2, init_values=(p, q, t0)):",
        "                for (j, e0, e1, u) in pl.while_(init_values=(0, c0, c1, t)):",
        "                    pl.cond(j < n)",
        "                    m1 = pl.create_tensor([4, 4], dtype=pl.FP32)",
        "                    e0, u = pl.submit(self.wr, m1, deps=[u])",
        "                    j_done, c0, c1, ti = pl.yield_(j + 1, e0, e1, u)",
        "                for k, (f0, f1, v) in pl.range(2, init_values=(c0, c1, ti)):",
        "                    if i == 0:",
        "                        pass",
        "                    else:",
        "                        h2 = pl.tensor.read(f0, [1, 1])",
        "                        pl.tensor.write(sink, [2], h2)",
        "                    c0, c1, tf = pl.yield_(f0, f1, v)",
        "                d0, d1, tr = pl.yield_(c0, c1, tf)"]
    # n = 2: two runs per outer iteration, each its own buffer; the host read in the further
    # loop (i = 1 only, both k) sees the last one (#3, i = 1 j = 1) twice; POST's rd(d0) too.
    seq = _seq(prog, 2)
    writes = [ev for ev in seq.events if ev.kernel == "wr"]
    assert [ev.idx for ev in writes] == [0, 1, 2, 3]
    assert len({ev.accesses[0].buf for ev in writes}) == 4
    reads = [ev for ev in seq.events if ev.kind == "hread"]
    assert [_stamps(ev) for ev in reads] == [{("ev", 3)}] * 3
    assert N.fences.careless(prog) is None


SLICES = N.build(N.Frame(2, 2, "auto"), inner=(("up", "s"),), further=(("rd", "s"),))


def test_row_blocks_written_per_run_and_read_per_run_by_hand():
    # i = 0: #0 up(g rows 0-3), #1 up(rows 4-7); further #2 rd(rows 0-3) sees #0, #3 rd(rows
    # 4-7) sees #1. i = 1: #4, #5 the same rows (each sees #0, #1), #6 sees #4, #7 sees #5.
    # POST: #8 rd(p) and #9 rd(q) their own, #10 rdg(g): rows 0-3 #4, rows 4-7 #5, the rest g's
    # own; #11 the host read of p; #12 its sink write; #13 up(w).
    seq = _seq(SLICES)
    assert [ev.kernel for ev in seq.events[:11]] == ["up", "up", "rd", "rd"] * 2 + ["rd", "rd", "rdg"]
    assert [_stamps(seq.events[k]) for k in range(8)] == [
        {("ext", "g")}, {("ext", "g")}, {("ev", 0)}, {("ev", 1)}, {("ev", 0)}, {("ev", 1)},
        {("ev", 4)}, {("ev", 5)}]
    assert seq.events[10].reads[0][:16] == [("ev", 4)] * 16 and seq.events[10].reads[0][16:32] == [("ev", 5)] * 16
    assert _stamps(seq.events[10]) == {("ev", 4), ("ev", 5), ("ext", "g")}
    pairs = oracle.sequential_conflicts(seq)
    assert pairs[(0, 2)] == {"RAW"} and pairs[(2, 4)] == {"WAR"} and pairs[(3, 5)] == {"WAR"}
    assert pairs[(0, 4)] == {"RAW", "WAR", "WAW"}        # both InOut: each reads and writes
    assert (0, 3) not in pairs and (1, 2) not in pairs and (2, 5) not in pairs   # disjoint rows


USER_DEPS = N.build(N.Frame(2, 2, "auto"), inner=(("trd", "s"),), further=(("trd", "x"),))


def test_the_taskids_a_deps_list_stands_for_by_hand():
    # t0 = None. i = 0: t = {}; #0 deps=[u, t] = {}; u = {0}; #1 {0}; ti = {1}; further #2 deps
    # [v, t] = {1}, #3 {2}; tf = {3}. i = 1: t = {3}; #4 {3}; #5 {4} | {3}; #6 {5} | {3}; #7 {6} | {3}.
    seq = _seq(USER_DEPS)
    assert [set(seq.events[k].user_deps) for k in range(8)] == [
        set(), {0}, {1}, {2}, {3}, {3, 4}, {3, 5}, {3, 6}]
    assert "r2, v = pl.submit(self.rd, f0, deps=[v, t])" in P.render(USER_DEPS).source


READ_THEN_UPDATE = N.build(N.Frame(2, 2, "auto"), inner=(("rd", "x"),), further=(("up", "x"),))


@needs_gxx
def test_the_oracle_fails_when_the_edge_to_the_inner_readers_is_removed():
    # Two inner readers of p (#0, #1), then the further loop's InOut writer #2 of p: readers are
    # never recorded (runtime-api.md 11), so only the compiler's explicit edges order #2 after
    # them. The recorded run passes; without the deps of that submit, a WAR hazard.
    rep, runs = runner.recorded(READ_THEN_UPDATE)
    assert not rep.classes(), runner.describe(rep)
    seq, log, ids = runs[0]
    assert [ev.kernel for ev in seq.events[:3]] == ["rd", "rd", "up"]
    submits = [k for k, ev in enumerate(log) if ev["ev"] == "submit"]
    writer = submits[2]
    assert log[writer]["deps"], "the writer waits for the inner readers explicitly"
    edited = [dict(ev) for ev in log]
    edited[writer]["deps"] = []
    fails = oracle.check_run(seq, edited, ids)
    assert any(f.cls.startswith("hazard WAR task>task") for f in fails), fails


@needs_gxx
def test_the_user_dep_check_fails_when_an_entry_is_dropped():
    # The recorded run keeps every deps= entry (docs/semantics.md: "The user's dependencies
    # stay"); with the user's entry of #5 (deps=[u, t] = {3, 4}) dropped and nothing else ordering
    # it after #3 (both read), the check reports it.
    rep, runs = runner.recorded(USER_DEPS)
    assert not rep.classes(), runner.describe(rep)
    seq, log, ids = runs[0]
    model = R.build(log)
    nodes_of, bad = oracle.match(seq, model, ids)
    assert bad is None and N.check_user_deps(seq, model, nodes_of) == []
    submits = [k for k, ev in enumerate(log) if ev["ev"] == "submit"]
    edited = [dict(ev) for ev in log]
    edited[submits[5]]["deps"] = []
    model = R.build(edited)
    fails = N.check_user_deps(seq, model, nodes_of)
    assert [f.cls for f in fails] == ["user-dep", "user-dep"], fails
    assert N.build(N.Frame(2, 2, "auto"), inner=(("trd", "s"),)).check().classes() == set()


def test_random_programs_are_reproducible_and_run_in_the_semantics():
    progs = [N.generate(5006 + k) for k in range(20)]
    assert [p.source for p in progs] == [N.generate(5006 + k).source for k in range(20)]
    for prog in progs:
        for n, c in prog.settings:
            semantics.run(prog, P.render(prog).lines, n, c)
        assert N.fences.careless(prog) is None


def test_a_host_fence_on_a_cell_of_several_tasks_in_a_loop_compiles_and_passes():
    """Random programs of seed 5060 (nests50600000012 and ...0050): a host access after a loop
    nest waits, through its fence, on a cell that holds the TaskIds of several tasks, stored
    outside a loop around the fence. drop_edges_after_first_run asked the fence for the TaskId
    it stores (a task's), which a host fence has not: an internal error, found on the merged
    tree of session 30. Now both compile and pass the oracle."""
    for seed in (50600000012, 50600000050):
        rep = N.generate(seed).check()
        assert rep.runs > 0 and rep.classes() == set(), runner.describe(rep)


def test_a_candidate_the_semantics_cannot_run_is_invalid_not_a_crash(monkeypatch):
    """The shrinker's candidates may read a name they no longer bind; the user-deps check runs
    the tester's semantics first and must report such a candidate invalid (as runner.check
    does), not raise (a run of seed 5060 stopped on a KeyError while shrinking)."""
    from nanopass.tools.attack import fences

    def broken(prog, lines, n, c):
        raise KeyError("d0")

    monkeypatch.setattr(semantics, "run", broken)
    rep = N.generate(50600000012).check()
    assert rep.invalid is not None and "semantics failed" in rep.invalid and "KeyError" in rep.invalid
    assert fences.careless(N.generate(50600000012)).startswith("the tester's semantics failed")
