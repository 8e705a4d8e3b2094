"""The join of a task's runs in a loop of a few iterations known before it runs, in no other
loop, whose waiters, in no loop, are each ordered after the latest run by the runtime
(drop_latest_runs_from_joins, issue 24): the waiters need the runs of the iterations before the
last only, and a cell per such iteration holds them (``j == k: join_k = tid``) where that costs
no more than the lagged join's barriers. The figures are the emitted program's
(tools/measure_edges.py), computed by hand in each test; every program also passes the hazard
checker."""

from __future__ import annotations

from dsl_header import program
from test_lean_edges import OFF, checked_clean, insertions

ROW = "pl.Tensor[[8, 16], pl.FP32]"


def blocks(trips: int, waiters: int) -> str:
    """``trips`` runs of ``add`` in a loop, each reading ``y`` and writing block ``i`` of
    ``big``; after it ``waiters`` writers of ``y`` (and of the tensor of their own the writer
    before left), each reading the last block the loop wrote: the runtime orders each after the
    loop's last run, and the compiler after every run (they read ``y``)."""
    after = "\n".join("        y = self.acc(r, y)" for _ in range(waiters))
    return program(
        [f"add(a: {ROW}, b: {ROW}, out: pl.InOut[{ROW}])", f"acc(a: {ROW}, y: pl.InOut[{ROW}])"],
        f"x: {ROW}, y: pl.InOut[{ROW}], big: pl.InOut[pl.Tensor[[{8 * trips}, 16], pl.FP32]], n: pl.Scalar[pl.INT64]",
        f"""
        for i in pl.range({trips}):
            s = pl.tensor.slice(big, [8, 16], [i * 8, 0])
            s = self.add(x, y, s)
        r = pl.tensor.slice(big, [8, 16], [{8 * (trips - 1)}, 0])
{after}
        return y
""",
        returns=ROW,
    )


def figures(text: str, options=None):
    f = insertions(text, 1, options)
    return f.insertions, f.redundant, f.dummies, f.minimum


def test_the_waiter_after_a_loop_of_three_waits_on_the_cells_of_the_first_two_iterations():
    """T = 3: the writer of y after the loop is ordered after add's run in iteration 2 by the
    runtime (it looks up block 2), and waits for the runs of iterations 0 and 1 through a cell
    each: 2 entries, no dummy, the minimum. The lagged join (before the rule) joined runs 0 and 1
    in a barrier at the start of iteration 2: 2 entries, 1 dummy, and the waiter's entry on it:
    3. Without the lean passes, a barrier per run after the first: 2 + 2 + 1 = 5, 2 dummies."""
    text = blocks(3, 1)
    assert figures(text) == (2, 0, 0, 2)
    assert figures(text, OFF) == (5, 0, 2, 2)
    checked_clean(text, (1,))


def test_a_loop_of_four_saves_a_barrier_an_iteration_past_the_second():
    """T = 4: cells for iterations 0, 1, 2: 3 entries, no dummy, the minimum; the lagged join's
    barriers at the starts of iterations 2 and 3 cost 2 entries and a dummy each, and the
    waiter 1: 5. Without the lean passes: 2 * 3 + 1 = 7, 3 dummies."""
    text = blocks(4, 1)
    assert figures(text) == (3, 0, 0, 3)
    assert figures(text, OFF) == (7, 0, 3, 3)
    checked_clean(text, (1,))


def test_a_loop_of_two_keeps_the_lagged_join_of_one_run():
    """T = 2: the lagged join holds run 0 alone (a barrier of one entry is not submitted): the
    waiter's entry on it, 1, as a cell of iteration 0 would cost; the join stays as it was."""
    text = blocks(2, 1)
    assert figures(text) == (1, 0, 0, 1)
    checked_clean(text, (1,))
