"""A join cleared where the joined task's run is ordered after every earlier one (issue 24, seed
36084): ``drop_latest_runs_from_joins`` leaves the join's barrier out where a loop counter says
the run is ordered after the previous one (``if i < 2``), and the join keeps the runs before the
previous one. Where the counter says the run is ordered after every earlier one
(``RuntimeOrder.chained_from(..., every=True)``), those older runs are implied through the
latest-run cell: the join is cleared there instead, and the waiters that read it insert nothing
for them. The figures are the emitted program's (tools/measure_edges.py), computed by hand; every
program also passes the hazard checker on every trip count tried."""

from __future__ import annotations

from test_lean_edges import OFF, TILE, checked_clean, insertions
from test_lean_loop_joins import HEADER, _order_after_hazards

# The copy-and-accumulate swap loop of three runs, its second carry a manual_dep tensor (the
# generated programs' ``t0``), and a writer of y after it that reads the loop's result (m).
SWAP_LOOP = """        m = pl.create_tensor([16, 16], dtype=pl.FP32, manual_dep=True)
{indent}for i, (p, q) in pl.range(3, init_values=(y, m)):
{indent}    t = pl.create_tensor([16, 16], dtype=pl.FP32)
{indent}    t = self.copy(p, t)
{indent}    if i >= 1:
{indent}        q = self.acc(t, q)
{indent}    o, e = pl.yield_(q, p)
{indent}y = self.add(o, x, y)
"""

ORCH = f"""    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: {TILE}, y: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]) -> {TILE}:
"""

ONCE = HEADER + ORCH + SWAP_LOOP.format(indent="        ") + "        return y\n"

_FIRST, _REST = SWAP_LOOP.split("\n", 1)
IN_AN_OUTER_LOOP = (HEADER + ORCH + _FIRST + "\n        for k in pl.range(n):\n"
                    + _REST.format(indent="            ") + "        return y\n")


def test_runtime_order_knows_where_a_swapped_read_is_ordered_after_every_earlier_one(tmp_path):
    """The read at i = 2 looks up y, which the writer at i = 1 wrote after reading the read at
    i = 1's output and waiting for the read at i = 0 (the join): it is ordered after both earlier
    reads; the read at i = 1 (of m, untracked) after none."""
    order, number = _order_after_hazards(ONCE, tmp_path)
    assert order.chained_from(number["copy0"]) == ("i", 2)
    assert order.chained_from(number["copy0"], every=True) == ("i", 2)


def test_the_join_is_cleared_where_the_read_is_ordered_after_every_earlier_one():
    """Reads r0, r1, r2 (r1 reads m, untracked), the writers w1 (of y, after r1's output by the
    runtime) and w2 (of m), and the writer of y after the loop (reads m). Needed: w1 after r0
    (it overwrites what r0 read: 1 entry); w2 after r1 is implied (r1 -> w1 -> r2 -> w2, the
    last two by the runtime); the writer after the loop after r2 (it overwrites what r2 read:
    1 entry) and after r0 (implied: r0 -> w1 -> r2). The join is r0 at i = 1 (one entry: no
    barrier), cleared at i = 2: w2 waits on nothing, the writer after the loop on the join
    (empty) and the latest read r2. 2 entries, the minimum, for every n (n is not read). With
    the join keeping r0 at i = 2: w2 and the writer after the loop wait on r0 too, 4. Without the
    lean passes: 7 with 2 dummies."""
    for n in (0, 1, 3):
        after = insertions(ONCE, n)
        assert (after.insertions, after.redundant, after.dummies, after.minimum) == (2, 0, 0, 2)
    assert (insertions(ONCE, 1, OFF).insertions, insertions(ONCE, 1, OFF).dummies) == (7, 2)
    checked_clean(ONCE, (0, 1, 2))


def test_the_join_cleared_in_each_run_of_an_outer_loop_costs_the_minimum():
    """The loop above in a loop of n runs: the writer of y after the swap loop is ordered after
    every read of the run (as above) and the join is cleared after it (both cells), so each run
    starts with an empty join and costs what the loop above costs: 2 entries a run, 2 n, the
    minimum (with the join keeping r0 at i = 2: 4 n). Without the lean passes: 7, 16 and 25 for
    n = 1, 2, 3."""
    for n in (0, 1, 2, 3):
        after = insertions(IN_AN_OUTER_LOOP, n)
        assert (after.insertions, after.redundant, after.dummies, after.minimum) == (2 * n, 0, 0, 2 * n)
    assert [insertions(IN_AN_OUTER_LOOP, n, OFF).insertions for n in (1, 2, 3)] == [7, 16, 25]
    checked_clean(IN_AN_OUTER_LOOP, (0, 1, 2, 3))
