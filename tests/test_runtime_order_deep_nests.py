"""runtime_order's walk of nested loops (issue 24): each walk of a loop walks the loop in it from
the state and scalars of its first iteration and from those of its later ones, so the loop nested
``k`` deep is walked ``2 ** k`` times; past ``LOOP_WALKS`` walks a loop is walked from the state
that knows nothing, with no scalars (``_Walker.walk_knowing_nothing``), the same walk each time.
The walks are counted as the calls of ``_Walker.walk_loop`` (the walks ``exits`` does not take
from its memo), per analysis (per ``_Walker``)."""

from __future__ import annotations

from test_limits import compile_text, nested, program

from nanopass.passes import runtime_order as ro

BODY = ["o = self.k(a, n, o)", "a = self.k(o, n, a)"]


def counted_walks(monkeypatch) -> dict:
    """walker -> {id(loop): its walks}, filled as the analyses run."""
    walks: dict = {}
    walk_loop = ro._Walker.walk_loop

    def counted(self, loop, state):
        per = walks.setdefault(self, {})
        per[id(loop)] = per.get(id(loop), 0) + 1
        return walk_loop(self, loop, state)

    monkeypatch.setattr(ro._Walker, "walk_loop", counted)
    return walks


def test_loops_six_deep_are_walked_from_every_state_they_are_reached_in(tmp_path, monkeypatch):
    # Each walk of loop k walks loop k + 1 twice: from the state before it in loop k's first
    # iteration, and from loop k's header after the first (its second walk from there meets the
    # header it started from: the latest runs after two iterations are ordered as after one).
    # So loop k (0 the outermost) is walked 2 ** k times, 63 walks in all, under the budget.
    walks = counted_walks(monkeypatch)
    compile_text(tmp_path, program(nested([f"for i{k} in pl.range(n):" for k in range(6)], BODY)), static=True)
    assert walks
    for per in walks.values():
        assert sorted(per.values()) == [1, 2, 4, 8, 16, 32]
    assert ro.LOOP_WALKS > 32


def test_past_the_budget_a_nest_18_deep_costs_walks_linear_in_its_depth(tmp_path, monkeypatch):
    # With a budget of 8, a loop is walked at most 8 times from the states it is reached in, then
    # once from nothing known (the same walk for every later reach): at most 9 walks a loop, 162
    # for the 18 loops, where walking each from every state would take 2 ** 18 - 1 = 262,143.
    monkeypatch.setattr(ro, "LOOP_WALKS", 8)
    walks = counted_walks(monkeypatch)
    compile_text(tmp_path, program(nested([f"for i{k} in pl.range(n):" for k in range(18)], BODY)), static=True)
    assert walks
    for per in walks.values():
        assert len(per) == 18
        assert max(per.values()) == 9  # (reached: the deep loops were walked from nothing known)
        assert sum(per.values()) <= 18 * 9


# Tasks at every depth of a nest of alternating trip counts, and after the inner loops: the hazard
# pass orders each writer after the reads before it (WAR), most of which the runtime's lookups
# imply (each task reads what the one before it wrote).
DEEP = program([
    "for i0 in pl.range(n):",
    "    o = self.k(a, n, o)",
    "    for i1 in pl.range(m):",
    "        a = self.k(o, n, a)",
    "        for i2 in pl.range(n):",
    "            o = self.k(a, n, o)",
    "            for i3 in pl.range(m):",
    "                a = self.k(o, n, a)",
    "                for i4 in pl.range(n):",
    "                    o = self.k(a, n, o)",
    "                    a = self.k(o, n, a)",
    "            o = self.k(a, n, o)",
    "        a = self.k(o, n, a)",
    "    o = self.k(a, m, o)",
]).replace("n: pl.Scalar[pl.INT64])", "n: pl.Scalar[pl.INT64], m: pl.Scalar[pl.INT64])")


def test_edges_dropped_on_the_word_of_walks_from_nothing_known_stay_sound(monkeypatch):
    # A budget of 2: the loops from the third in are walked from nothing known. What the lean
    # passes drop on that walk's word passes the hazard checker on each trip count tried.
    from nanopass.tools.properties import Findings, check_text

    monkeypatch.setattr(ro, "LOOP_WALKS", 2)
    walks = counted_walks(monkeypatch)
    runs = [{"n": str(n), "m": str(m)} for n, m in ((0, 1), (1, 0), (1, 1), (2, 1), (1, 2), (2, 2))]
    findings = Findings()
    failures = check_text(DEEP, runs, findings)
    assert not failures, failures[0].message
    assert findings.refused_by_design == 0
    assert any(max(per.values()) == 3 for per in walks.values())  # (2 + the walk from nothing known)
    # That walk implies less: it keeps edges the walks from every state drop (all of them here).
    assert deep_insertions() > 0
    monkeypatch.setattr(ro, "LOOP_WALKS", 256)
    assert deep_insertions() == 0


def deep_insertions() -> int:
    from nanopass.api import surface_of
    from nanopass.tools.check import program_inputs
    from nanopass.tools.measure_edges import measure_stages
    from nanopass.tools.properties import compile_text

    stages, dsl = compile_text(DEEP, {})
    return measure_stages(stages, program_inputs(surface_of(dsl), {"n": "2", "m": "2"})).insertions
