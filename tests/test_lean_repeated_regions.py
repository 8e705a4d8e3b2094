"""The regions a loop's slices view at offsets computed from its counter, the loop's bounds
reading only the function's scalar parameters (issue 24, seed 28197 of measure_generated): each
time the loop runs, the iteration of a counter value views the same region, so a write of it in
a later run finds the write of the run before (``loop_facts.repeated_regions``), and a walk of
a loop taken from an earlier walk under other first/later-iteration flags records what that walk
recorded of its tasks under them (its journal). Figures (tools/measure_edges.py) by hand, and the
hazard checker on each program."""

from __future__ import annotations

import nanopass.passes.loop_facts as loop_facts
import nanopass.passes.runtime_order as runtime_order

from dsl_header import program
from test_lean_edges import OFF, checked_clean, insertions

T16 = "pl.Tensor[[16, 16], pl.FP32]"
T32 = "pl.Tensor[[32, 16], pl.FP32]"

# acc reads all of big and writes y; in each of two runs of the loop over i, step writes the
# region (i % 2) * 16 of big (a write-after-read edge on acc: the hazard passes cannot tell the
# regions apart), reading x, which no task writes
REGIONS = program(
    [f"acc(a: {T32}, y: pl.InOut[{T16}])", f"step(a: {T16}, t: pl.InOut[{T16}])"],
    f"big: pl.InOut[{T32}], x: {T16}, y: pl.InOut[{T16}], n: pl.Scalar[pl.INT64]",
    """
        y = self.acc(big, y)
        for j in pl.range(2):
            for i in pl.range(n):
                s = pl.tensor.slice(big, [16, 16], [(i % 2) * 16, 0])
                s = self.step(x, s)
        return y
""",
    returns=T16, name="Regions",
)


def figures(text: str, n: int, options=None) -> tuple:
    found = insertions(text, n, options)
    return found.insertions, found.redundant, found.minimum, found.dummies


def test_a_write_of_a_counter_s_region_in_a_later_run_of_its_loop_finds_the_run_before():
    """step at (j, i) writes the region (i % 2) * 16 of big, which acc read: a write-after-read
    edge on acc. At j = 0 and i = 0, 1 it is needed (nothing else orders step after acc); at
    i >= 2 step's lookup of the region finds step at i - 2 (the same region), which came after
    acc; at j = 1 step at i finds step at (0, i). By hand: n steps a run, the minimum min(n, 2);
    the edge inserted at j = 0 only (a cell set before the loop over j and cleared at the end of
    its first iteration: step at j = 1 looks up what step at j = 0 wrote): n = 1: 1 insertion,
    none redundant, minimum 1; n = 2: 2, 0, 2; n = 3: 3, 1 (step at (0, 2): the walk does not
    tell region 0 of i = 2 from region 16 of i = 1 in one run), 2. Without the rule every run of
    step inserts it: 2 n, of which 2 n - min(n, 2) redundant."""
    assert [figures(REGIONS, n, OFF) for n in (0, 1, 2, 3)] == [(0, 0, 0, 0), (2, 1, 1, 0), (4, 2, 2, 0),
                                                                (6, 4, 2, 0)]
    assert [figures(REGIONS, n) for n in (0, 1, 2, 3)] == [(0, 0, 0, 0), (1, 0, 1, 0), (2, 0, 2, 0), (3, 1, 2, 0)]
    checked_clean(REGIONS, trips=(0, 1, 2, 3))


def test_a_slice_whose_offset_reads_an_outer_counter_has_no_repeated_region():
    """``(i % 2 + j) * 16`` views another region in each run of the loop over i: no key of its
    regions, and step inserts the edge in every run (2 n: at j = 1, step at i = 0 writes the
    region 16, which step at (0, 1) wrote for n >= 2, implied there; needed at n = 1)."""
    from nanopass.tools.properties import compile_text

    moving = REGIONS.replace("[(i % 2) * 16, 0]", "[(i % 2 + j) % 2 * 16, 0]")
    for text, found in ((REGIONS, 1), (moving, 0)):
        stages, _ = compile_text(text, {})
        func = stages["expand_manual_phase_fence"].tree.orch
        loops = [s for s in runtime_order.iter_stmts(func.body) if s._production == "For"]
        params = frozenset({"n"})
        number = {id(t): k for k, t in enumerate(s for s in runtime_order.iter_stmts(func.body) if s._production == "Task")}
        plans = [loop_facts.repeated_regions(loop, params, number) for loop in loops]
        assert sum(plan is not None for plan in plans) == found
    assert figures(moving, 1)[0] == 2
    checked_clean(moving, trips=(0, 1, 2, 3))


def test_a_loop_walked_again_from_an_equal_state_under_other_flags_records_its_tasks_under_them(monkeypatch):
    """Seed 28197 of measure_generated: ``k_two`` writes the region ``(i12 % 4) * 8`` of big in a
    loop of ``n`` trips in each iteration of a ``pl.parallel`` loop of two, with an edge on
    ``k_add``, which read big before. Where ``n`` is 0 the walk of the loop over i12 in the later
    iteration of the parallel loop starts from the state the first reached and is taken from it
    (``_Walker.exits``): what that walk recorded of ``k_two``'s edge is recorded under the flags
    of the later iteration too (before, the loop was left unknown there, and the edge inserted in
    every run). The oracle: the measure's compiler minimum (tools/measure_edges.py), which the
    program now inserts, none redundant (36 insertions, 18 redundant before); and the figures are
    those of a walk that takes no loop's walk from an earlier one."""
    from nanopass.tools.measure_generated import program_totals

    hits = []
    walked = runtime_order._Walker.exits

    def counted(self, loop, state):
        key = (id(loop), state.key(), frozenset(self.values.items()), frozenset(self.exact.items()), self.unrolled,
               self.manual)
        hits.extend(1 for entry in self.walked.get(key, ()) if entry[3] != tuple(self.later))
        return walked(self, loop, state)
    monkeypatch.setattr(runtime_order._Walker, "exits", counted)
    total = program_totals(28197)
    assert hits  # (a walk taken from one under other flags)
    assert (total["insertions"], total["redundant"]) == (total["compiler_minimum"], 0) == (18, 0)

    def anew(self, loop, state):
        self.walked.clear()
        return walked(self, loop, state)
    monkeypatch.setattr(runtime_order._Walker, "exits", anew)
    again = program_totals(28197)
    assert (again["insertions"], again["redundant"]) == (18, 0)
