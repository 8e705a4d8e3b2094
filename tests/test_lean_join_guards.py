"""A waiter's edge on a join cell (every run of a task) implied where the counter of its loop has
given values: the waiter waits on a cell of its own that a guard sets to no task there, and to a
copy of the join elsewhere (drop_latest_runs_from_joins, ``guard_waiters``, issue 24). The
figures are the emitted program's (tools/measure_edges.py), computed by hand; the program also
passes the hazard checker. The swap loop of test_lean_joins_chained_where.py (a join kept as a
chain) is guarded too: its acc's entry in iteration 2 goes there."""

from __future__ import annotations

from dsl_header import program
from test_lean_edges import checked_clean, insertions

T = "pl.Tensor[[8, 8], pl.FP32]"

# The inner loop swaps its carries: copy reads p (y, then z), acc (j >= 1) writes q (y) after
# copy's runs (a join of them: acc reads t, which copy's run j = 1 wrote, and waits on run 0
# through the join). After it, add writes y reading r. The outer loop hands a new manual tensor
# to the inner loop's first carry from its second iteration on: in iterations 0 and 1 the inner
# loop starts from y, then y again (q2 is y in iteration 1), in iteration 2 from m0, a manual
# tensor no TensorMap tracks.
LAGGED = program(
    [f"copy(a: {T}, out: pl.Out[{T}])", f"acc(a: {T}, y: pl.InOut[{T}])", f"add(a: {T}, b: {T}, y: pl.InOut[{T}])"],
    f"x: {T}, y: pl.InOut[{T}], z: pl.InOut[{T}], n: pl.Scalar[pl.INT64]",
    f"""
    for i, (p1, q2) in pl.range(3, init_values=(y, y)):
        for j, (p6, q7) in pl.range(2, init_values=(p1, z)):
            t: {T} = pl.create_tensor([8, 8], dtype=pl.FP32)
            t = self.copy(p6, t)
            if j >= 1:
                q7 = self.acc(t, q7)
            o9, o10 = pl.yield_(q7, p6)
        y = self.add(o9, x, y)
        y = self.add(o10, x, y)
        p1: {T} = pl.create_tensor([8, 8], dtype=pl.FP32, manual_dep=True)
        o12, o13 = pl.yield_(q2, p1)
    return y
""",
    returns=T,
)


def test_a_waiter_of_a_lagged_join_drops_its_edges_where_its_loops_counter_says_they_are_implied():
    """The first add (writes y) waits for every copy run (it may overwrite what they read): a
    lagged join (the runs before the latest) and the latest-run cell, both cleared after the
    second add. In outer iterations 0 and 1 o9 is y, which acc wrote after copy's run j = 1 (it
    reads t) and run j = 0 (its join edge): the add's lookup of y orders it after both, and its
    two entries are implied there; in iteration 2 o9 is the manual m0, looked up by no one: they
    stay. Before the rule: 2 entries in each outer iteration, 4 of them redundant; with it the
    guard (``i == 0 || i == 1``) sets both cells to no task there: 2 entries in iteration 2
    only. The other entries stay as they were: acc's edge on copy's run j = 0 in each outer
    iteration (3) and acc's first-run edge on the second add (1). Insertions 3 + 2 + 1 = 6, none
    redundant, no dummy (each barrier of the lagged join holds one entry: not submitted); the
    minimum 6 (before the rule 10, 4 redundant)."""
    f = insertions(LAGGED, 0)
    assert (f.insertions, f.redundant, f.dummies, f.minimum) == (6, 0, 0, 6)
    checked_clean(LAGGED, (0,))


# The swap loop in an outer loop of three: copy reads p (y, then m, y, m, ...), acc (j >= 1)
# writes q (y, then m, ...) after copy's runs so far (the join: acc reads t, which copy's latest
# run wrote, and waits on the older runs through the lagged join). After it, add writes y,
# reading r: y where the inner loop made an even number of trips (two or more: acc wrote it
# last), m (manual: looked up by no one) where it made an odd number.
PARITY_READER = program(
    [f"copy(a: {T}, out: pl.Out[{T}])", f"acc(a: {T}, y: pl.InOut[{T}])", f"add(a: {T}, b: {T}, y: pl.InOut[{T}])"],
    f"x: {T}, y: pl.InOut[{T}], z: pl.InOut[{T}], n: pl.Scalar[pl.INT64]",
    f"""
    m: {T} = pl.create_tensor([8, 8], dtype=pl.FP32, manual_dep=True)
    for i in pl.range(3):
        for j, (p, q) in pl.range(n, init_values=(y, m)):
            t: {T} = pl.create_tensor([8, 8], dtype=pl.FP32)
            t = self.copy(p, t)
            if j >= 1:
                q = self.acc(t, q)
            r, s = pl.yield_(q, p)
        y = self.add(r, x, y)
    return y
""",
    returns=T,
)


def test_a_reader_after_a_swap_loop_drops_its_join_edges_where_the_loop_made_an_even_number_of_trips():
    """add writes y, which copy's runs of even j read: it waits for every copy run (the lagged
    join and its latest-run cell). With n = 2, r is y, which acc's run j = 1 wrote after copy's
    run 1 (it reads t) and run 0 (its edge on the join): add's lookup of y orders it after
    every copy run, and the guard (the loop made an even number of trips) sets both its cells
    to no task. Per outer iteration: acc's 1 entry (the join holds run 0; its barrier, of one
    entry, is not submitted) and add's none: 3 insertions, none redundant, the minimum 3;
    before the rule add's 2 entries in each outer iteration too, all redundant: 9, 6 redundant.
    With n = 4 (even again): per outer iteration the barriers before copy's runs 2 and 3 (two
    entries and a dummy each) and acc's entry in j = 1, 2, 3: 7, add's none: 21 and 6 dummies,
    none redundant (before the rule 27, 6 redundant). With n = 1 and 3 (odd) r is m, which no
    one looks up: add's edges stay (n = 3: 18 insertions, as before)."""
    figures = {}
    for n in (2, 3, 4):
        f = insertions(PARITY_READER, n)
        figures[n] = (f.insertions, f.redundant, f.dummies)
    assert figures[2] == (3, 0, 0)
    assert figures[3] == (18, 0, 3)
    assert figures[4] == (21, 0, 6)
    checked_clean(PARITY_READER, (1, 2, 3, 4))


def test_no_guard_where_the_one_loop_around_the_joined_task_made_no_trip():
    """Seed 28156 of measure_generated: k_copy runs in the top-level loop over i2, and a k_add
    after the loop waits on its join. Where the loop made no trip the join holds no run, so the
    waiter's edge on it is implied there trivially; a guard on that (a copy of the join where
    n > 0) changed how the cells are cleared and cost an insertion the measure finds redundant
    (8 against a minimum of 7). By the measure (the runtime model's order, not the compiler's
    figures): every insertion is needed."""
    from nanopass.tools.measure_generated import generated_totals

    total = generated_totals([28156])
    assert (total["insertions"], total["redundant"]) == (total["minimum"], 0)
