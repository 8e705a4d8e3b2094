"""The join of a task's runs that stays a chain of barriers (a waiter in another loop waits on
it again and again), where the counter of the loop around the task says which runs the runtime
orders after every earlier run (drop_latest_runs_from_joins, ``RuntimeOrder.chained_each``,
issue 24): there the join takes the run itself (``if v == k or ...: join = tid``), and its
barrier, two entries and a dummy, goes. The figures are the emitted program's
(tools/measure_edges.py), computed by hand; the program also passes the hazard checker."""

from __future__ import annotations

from dsl_header import program
from test_lean_edges import checked_clean, insertions

T = "pl.Tensor[[8, 8], pl.FP32]"

SWAP = program(
    [f"copy(a: {T}, out: pl.Out[{T}])", f"acc(a: {T}, y: pl.InOut[{T}])"],
    f"x: {T}, y: pl.InOut[{T}], n: pl.Scalar[pl.INT64]",
    f"""
    m: {T} = pl.create_tensor([8, 8], dtype=pl.FP32, manual_dep=True)
    for i, (p, q) in pl.range(3, init_values=(y, m)):
        t: {T} = pl.create_tensor([8, 8], dtype=pl.FP32)
        t = self.copy(p, t)
        if i >= 1:
            q = self.acc(t, q)
        r, s = pl.yield_(q, p)
    for j in pl.range(n):
        r = self.acc(x, r)
    return y
""",
    returns=T,
)


def figures(n: int):
    f = insertions(SWAP, n)
    return f.insertions, f.redundant, f.dummies, f.minimum


def test_the_swap_loops_reader_takes_the_join_where_its_run_comes_after_every_earlier_one():
    """The carries swap: copy reads y, m, y in iterations 0, 1, 2; acc (i >= 1) writes y, then
    m (the manual tensor), each after copy's runs so far (a join of them). The loop after it
    writes m (r) n times, each after every copy run (m is tracked by no TensorMap: its writes
    are not ordered among themselves), so the join stays a chain. copy's run in iteration 2 reads
    y, which acc wrote in iteration 1 after copy's runs 0 and 1: the join takes that run with no
    barrier (and iteration 0's barrier has one entry, the run: not submitted). Entries: iteration 1's barrier (the join
    holding run 0, and run 1) 2 and a dummy; acc's 1 in iteration 1 (in iteration 2 it reads t,
    which copy's run 2 wrote after acc's run 1, which came after the runs before: the guard of
    ``guard_waiters`` sets its cell to no task where i is 2); each run of the loop after 1: 2 + 1
    + n, 1 dummy. Before the rule iteration 2's barrier cost 2 more and a dummy (its entry on the
    join implied), and before the join guard acc's entry in iteration 2 one more (redundant).
    Needed: copy's run 0 before acc's run 1, and copy's run 1 before each write of m after the
    loop: 1 + n."""
    assert figures(0) == (3, 0, 1, 1)
    assert figures(1) == (4, 0, 1, 2)
    assert figures(2) == (5, 0, 1, 3)
    checked_clean(SWAP, (0, 1, 2))


LAGGED = program(
    [f"copy(a: {T}, out: pl.Out[{T}])", f"acc(a: {T}, acc: pl.InOut[{T}])"],
    f"x: {T}, y0: pl.InOut[{T}], y1: pl.InOut[{T}], s0: pl.InOut[{T}], n: pl.Scalar[pl.INT64]",
    f"""
    for i, (p, q) in pl.range(3, init_values=(s0, y1)):
        for j in pl.range(3):
            w = self.copy(y0, p)
            t: {T} = pl.create_tensor([8, 8], dtype=pl.FP32)
            t = self.copy(y1, t)
            if j > 0:
                y1 = self.acc(x, y1)
        if n > 0:
            y0 = self.acc(q, y0)
        r, s = pl.yield_(q, s0)
    return y0
""",
    returns=T,
)


def barriers(n: int):
    f = insertions(LAGGED, n)
    return f.by_kind["barrier"], f.dummies


def test_a_lagged_join_leaves_out_its_barrier_where_the_counters_say_the_run_follows_the_previous():
    """The first copy (w) reads y0 and writes p (s0, y1, s0 in the outer iterations); the acc
    after the inner loop (n > 0) writes y0 after every run of w (a lagged join: it waits on the
    join and the latest-run cell, both cleared after it; before each run of w below i = 2, a
    barrier takes the latest run into the join). w's run in inner iteration j = 1 writes p after
    the one in j = 0 (the runtime orders it so): there the barrier is left out, the join keeping
    its older runs and the latest-run cell, overwritten, standing for both. Barrier entries of
    the second copy's join (t, waited on by acc in the inner loop; left out where i is 1 or j is
    0): iterations (0, 1), (0, 2), (2, 1), (2, 2), two entries and a dummy each: 8, 4 dummies.
    w's barriers: with n = 1 the join is cleared after acc in each outer iteration, and with
    j = 1's left out the barrier before j = 2 finds the join empty and the latest-run cell
    holding run 1 (one entry: not submitted): 0. With n = 0 nothing clears it: i = 0's barrier
    before j = 2 has one entry (run 1, which the join takes), i = 1's before j = 0 the join and
    run 2 of i = 0, and before j = 2 that barrier and run 1: 4 entries, 2 dummies. Before the
    rule the barrier before j = 1 took run 0 into the join, and the one before j = 2 joined the
    two: 2 entries and a dummy in each outer iteration below 2 with n = 1 (4, 2 dummies), and
    with n = 0 2 in i = 0 and 2 + 2 + 2 in i = 1 (8, 4 dummies)."""
    assert barriers(1) == (8, 4)
    assert barriers(0) == (8 + 4, 4 + 2)
    checked_clean(LAGGED, (0, 1))
