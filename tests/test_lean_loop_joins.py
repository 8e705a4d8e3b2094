"""The joins of a loop's readers (issue 24, the loop half of "lean edges"): a reader ``R`` in a
loop of unknown trip count and an InOut writer ``W`` of the read tensor that reads ``R``'s
output, but only on some iterations (``if i > 0``). The figures are the emitted program's
(tools/measure_edges.py), computed by hand in each test; every program also passes the hazard
checker on every trip count tried."""

from __future__ import annotations

from nanopass.api import run_pipeline
from nanopass.loader import load_programs
from nanopass.passes.runtime_order import runtime_order
from nanopass.passes.util import iter_stmts

from dsl_header import header, orch
from test_lean_edges import OFF, TILE, checked_clean, insertions

HEADER = header(
    [f"add(a: {TILE}, b: {TILE}, out: pl.Out[{TILE}])",
     f"copy(a: {TILE}, out: pl.Out[{TILE}])",
     f"acc(a: {TILE}, y: pl.InOut[{TILE}])"],
)

# The writer of y after the loop looks the loop's writer up; the loop's writer of y waits for
# the reads of y before it (the join) and reads the latest read's output.
LATER_WRITER_LOOKS_UP = HEADER + orch(
    f"x: {TILE}, y: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        for i in pl.range(n):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(y, t)
            if i > 0:
                y = self.acc(t, y)
        y = self.acc(x, y)
        return y
""",
    returns=TILE,
)

# As above, but the loop's reads read z too, and the writer of z after the loop is ordered
# after none of the loop's tasks by the runtime.
LATER_WRITER_UNORDERED = HEADER + orch(
    f"x: {TILE}, y: pl.InOut[{TILE}], z: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        for i in pl.range(n):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.add(y, z, t)
            if i > 0:
                y = self.acc(t, y)
        z = self.copy(x, z)
        return y
""",
    returns=TILE,
)


# The loop swaps its carries (y, z), so the buffer a run of the reader reads is the one the
# next run of the writer writes; the writer after the loop reads the loop's first result (the
# buffer the loop's last writer wrote, n >= 2) and writes y.
SWAPPED_CARRIES = HEADER + orch(
    f"x: {TILE}, y: pl.InOut[{TILE}], z: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        for i, (p, q) in pl.range(n, init_values=(y, z)):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(p, t)
            if i > 0:
                q = self.acc(t, q)
            o, e = pl.yield_(q, p)
        y = self.acc(o, y)
        return y
""",
    returns=TILE,
)


# As above, in a ``while`` that counts a carry from 0 by 1.
COUNTED_WHILE = HEADER + orch(
    f"x: {TILE}, y: pl.InOut[{TILE}], z: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        for (i, p, q) in pl.while_(init_values=(0, y, z)):
            pl.cond(i < n)
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(p, t)
            if i > 0:
                q = self.acc(t, q)
            (j, o, e) = pl.yield_(i + 1, q, p)
        y = self.acc(o, y)
        return y
""",
    returns=TILE,
)


def _order_after_hazards(text: str, tmp_path):
    """``runtime_order`` of the program as order_write_after_read leaves it, and its tasks'
    numbers by kernel and place among the tasks (``copy0``)."""
    path = tmp_path / "loop_joins.py"
    path.write_text(text)
    stages = run_pipeline(load_programs(str(path))[0], stop_after="order_write_after_read",
                          keep_tree=lambda stage: True)
    tree = stages[-1].tree
    tasks = [s for s in iter_stmts(tree.orch.body) if s._production == "Task"]
    order = runtime_order(tree, track=tasks)
    return order, {t.kernel + str(k): order.number[id(t)] for k, t in enumerate(tasks)}


def test_an_if_on_the_loop_variable_takes_one_branch_in_the_first_iteration_and_another_in_the_later_ones(tmp_path):
    """runtime_order: in a sequential loop of known start and positive step, ``i > 0`` is false
    in the first iteration and true in every later one, so with swapped carries the writer runs
    on every iteration after the first: each of its runs is ordered after the one before (the
    next read looks it up, the next writer reads that read's output), and the writer after the
    loop after the loop's writer (it looks the loop's result up). Without the bound, the else
    branch (no writer, the carry as it came) may run in any iteration, and neither holds."""
    order, number = _order_after_hazards(SWAPPED_CARRIES, tmp_path)
    copy, loop_acc, after_acc = number["copy0"], number["acc1"], number["acc2"]
    assert order.is_ordered(loop_acc, loop_acc)
    assert order.is_ordered(after_acc, loop_acc)
    assert not order.is_ordered(copy, copy)  # (runs 0 and 1 of the read: nothing orders them)


def test_a_join_whose_loop_waiter_reads_the_latest_run_leaves_it_out_and_the_waiter_after_the_loop_waits_on_both():
    """drop_latest_runs_from_joins: the loop's writer of y is ordered after the latest read by
    the runtime, the writer of z after the loop is not. The join holds the older reads only
    (a barrier ``[join, latest]`` just before the read runs again; one entry: no barrier), the
    loop's writer waits for it, the writer of z for the join and the latest-read cell.

    n = 1: z's writer waits for read 0 (1 entry). n = 2: the join is read 0 (no dummy), the
    loop's writer waits for it (1), z's writer for read 0 and read 1 (2): 3. n = 3: read 2 is
    ordered after read 1 (it reads y, which the writer at i = 1 wrote after read 1) and after
    read 0 (that writer waited for it), so where i >= 2 there is no barrier and the join is
    cleared (``RuntimeOrder.chained_from``, ``every``): the writer at i = 1 waits for read 0
    (1), the one at i = 2 for nothing, z's writer for the latest read 2 (1): 2, no dummy (with
    the join keeping read 0: 4; with a barrier [read 0, read 1] there: 6, 1 dummy). Before (one
    barrier per read after the first): 1, 4 and 7."""
    figures = {n: insertions(LATER_WRITER_UNORDERED, n) for n in (1, 2, 3)}
    assert {n: (f.insertions, f.dummies) for n, f in figures.items()} == {1: (1, 0), 2: (3, 0), 3: (2, 0)}
    assert all(f.redundant == 0 for n, f in figures.items() if n < 3)
    assert insertions(LATER_WRITER_UNORDERED, 3, OFF).insertions == 7
    checked_clean(LATER_WRITER_UNORDERED, (0, 1, 2, 3, 4))


def test_the_reads_of_a_loop_whose_writer_skips_the_first_iteration_cost_the_minimum():
    """Both changes together: the join leaves the latest read out (its loop waiter reads that
    read's output) and is cleared, with the latest-read cell, after the loop's writer (every
    later waiter is ordered after that writer: it looks the writer up, or, with swapped
    carries, its read of the other buffer did): the loop's writer waits for read 0 once (run 1)
    and for nothing after; the writer after the loop waits for read 0 when the loop ran once.
    One entry for every n >= 1, the minimum; before, a barrier per read after the first (with
    swapped carries and the join's latest run left out, but no clear: 3, 6 and 9 for n = 2, 3, 4;
    so too in a ``while`` whose counter runtime_order does not know is past 0 after the first
    iteration)."""
    for text in (LATER_WRITER_LOOKS_UP, SWAPPED_CARRIES, COUNTED_WHILE):
        for n in range(5):
            after = insertions(text, n)
            figures = (after.insertions, after.redundant, after.dummies, after.minimum)
            assert figures == ((1, 0, 0, 1) if n else (0, 0, 0, 0))
            assert insertions(text, n, OFF).insertions == (3 * n - 2 if n else 0)
        checked_clean(text, (0, 1, 2, 3, 4))


def test_a_waiter_in_the_loop_the_runtime_does_not_order_waits_on_both_cells_when_they_are_cleared_after_it():
    """drop_latest_runs_from_joins with ``analyze_auto_scopes_for_deps`` (the function is a
    MANUAL scope: the runtime orders nothing, the loop's writer is ordered after the read by a
    derived edge): the writer waits on the join of the older reads and on the latest read, and
    both cells are cleared after it (every later waiter is ordered after it), so a chain holds
    the reads since the last writer and a barrier is submitted only when there are three.

    n = 2: the join is read 0 (no barrier), the writer waits for reads 0 and 1 (2 entries),
    the read after it for the writer (1): 3, the minimum. Each later run: read i waits for the
    writer before it, the writer for read i (the join is empty): 2 a run; the writer after the
    loop for the last writer: 1, 3, 5 and 7 for n = 1 .. 4, each the minimum. With the join of
    every read (the waiter in the loop kept on it), a barrier of 2 entries at run 1: 4, 6, 8."""
    text = "# options: analyze_auto_scopes_for_deps=True\n" + SWAPPED_CARRIES
    for n in range(1, 5):
        after = insertions(text, n)
        assert (after.insertions, after.redundant, after.dummies, after.minimum) == (2 * n - 1, 0, 0, 2 * n - 1)
    checked_clean(text, (0, 1, 2, 3, 4))


# The loop's writer of y runs on odd iterations only; a host write of y after the loop waits
# through a host fence.
HOST_WRITE_AFTER = HEADER + orch(
    f"x: {TILE}, y: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        for i in pl.range(n):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(y, t)
            if i % 2 == 1:
                y = self.acc(t, y)
        pl.tensor.write(y, [0, 0], 1.5)
        return y
""",
    returns=TILE,
)


def test_a_host_fence_waits_on_both_cells_and_a_writer_it_looks_up_clears_them():
    """drop_latest_runs_from_joins with a host fence among the join's waiters: the fence (not
    ordered after the latest read by the runtime, in no loop) waits on the join and the
    latest-read cell; the loop's writer, which reads the latest read's output, waits on the join
    alone, and both cells are cleared after it: every later waiter (the writer again, which looks
    up its previous run; the fence, which looks the writer up: runtime_order's ``fence_ordered``)
    is ordered after it. A fence with no run to wait for is not submitted (its host write waits
    for the writer, a producer of y, by itself).

    n = 1: the fence waits for read 0 (1 entry, the fence). n = 2: the join is read 0 (no
    barrier), the writer's edge on it, cleared; the fence waits for nothing: 1. n = 3: read 2,
    the fence waits for it: 2, one fence. n = 4: read 3's join is read 2, the writer's edge on
    it: 2, no dummy. Each is the minimum. Before (the fence read the join, so the join was left
    as it was): a barrier per read after the first, 1, 4, 6 and 9."""
    expected = {1: (1, 1), 2: (1, 0), 3: (2, 1), 4: (2, 0)}
    for n, (entries, dummies) in expected.items():
        after = insertions(HOST_WRITE_AFTER, n)
        assert (after.insertions, after.redundant, after.dummies, after.minimum) == (entries, 0, dummies, entries)
    checked_clean(HOST_WRITE_AFTER, (0, 1, 2, 3, 4))


def test_three_waiters_the_runtime_does_not_order_wait_on_both_cells_where_one_clears_them():
    """drop_latest_runs_from_joins, as in the test above with a second writer after the loop
    (of z): three waiters the runtime does not order after the latest read, more than the two
    entries of the barrier a chain saves, but the loop's writer clears both cells, so every
    chain is a read or two, not every read since the start.

    n = 1: read 0, each writer after the loop waits for it (the latest-read cell): 2. n = 2:
    the join is read 0 (no barrier), the loop's writer waits for reads 0 and 1 (2), then
    clears; each writer after the loop waits for the loop's writer (1 each): 4. n = 3: read 2
    waits for the loop's writer before it (1), the next writer for read 2 (the join empty, 1),
    each writer after the loop for it: 6, the minimum each time. Keeping the latest read in the
    join (no clear): a barrier of 2 entries after each read from the second: 5 and 7 for n = 2, 3."""
    text = "# options: analyze_auto_scopes_for_deps=True\n" + SWAPPED_CARRIES.replace(
        "        y = self.acc(o, y)\n", "        y = self.acc(x, y)\n        z = self.acc(x, z)\n")
    for n in range(4):
        after = insertions(text, n)
        assert (after.insertions, after.redundant, after.dummies, after.minimum) == (2 * n, 0, 0, 2 * n)
    checked_clean(text, (0, 1, 2, 3))


# SWAPPED_CARRIES in a loop of two runs, the writer under ``if i >= 1`` (the generated programs'
# copy-and-accumulate swap loop, seed 32094): both runs of the inner loop start from y and z.
SWAPPED_IN_AN_OUTER_LOOP = HEADER + orch(
    f"x: {TILE}, y: pl.InOut[{TILE}], z: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        for k in pl.range(2):
            for i, (p, q) in pl.range(n, init_values=(y, z)):
                t = pl.create_tensor([16, 16], dtype=pl.FP32)
                t = self.copy(p, t)
                if i >= 1:
                    q = self.acc(t, q)
                o, e = pl.yield_(q, p)
        return y
""",
    returns=TILE,
)


def test_a_join_keeps_its_older_runs_where_the_read_is_ordered_after_the_one_before():
    """drop_latest_runs_from_joins with ``RuntimeOrder.chained_from``: from the third iteration
    on (i >= 2) the read looks up the buffer the writer at i - 1 wrote after reading the read
    at i - 1's output, so each read is ordered after the one before; the join's barrier is
    left out there (``if i < 2``) and the join is cleared there (``every``: each read is ordered
    after every earlier one too), the latest-read cell stands for every run. The loop's writer waits on the join (it is ordered after the
    latest read: it reads its output), and the join is cleared after it: ``n`` is the same in
    both outer runs, so the walk of the second knows which of ``y`` and ``z`` the first run's
    last writer wrote (``invariant_parity_loops``), and the writer at i = 1 of the second run
    is ordered after every read of the first (n even: its lookup of ``y`` finds the last
    writer, which came after every read; n odd: read 1 of the second run reads ``z``, which
    that writer wrote).

    A run of the outer loop, n >= 2: read 0 (its barrier joins nothing: the join was cleared),
    read 1 (its barrier joins read 0 alone: 1 entry, no dummy, not submitted), the writer at
    i = 1 waits on the join (read 0: 1 entry) and clears it; from i = 2 on the barrier is left
    out and the join holds nothing: the writer at i is ordered after the reads before it
    through the read at i (it reads ``p``, which the writer at i - 1 wrote after its own
    read). So 1 entry per outer run, 2 for n = 2, 3, 4, no dummy; n = 1: no writer runs, 0.
    Without the split by parity the join was not cleared (6, 8, 10 with 2 dummies for n = 2,
    3, 4), and before ``chained_from`` a barrier of 2 entries and a dummy at every read but the
    first two: 6 (n - 1) with 2 (n - 1) dummies, 12 and 18 for n = 3 and 4."""
    for n, expected in ((1, (0, 0)), (2, (2, 0)), (3, (2, 0)), (4, (2, 0))):
        after = insertions(SWAPPED_IN_AN_OUTER_LOOP, n)
        assert (after.insertions, after.dummies) == expected
    checked_clean(SWAPPED_IN_AN_OUTER_LOOP, (0, 1, 2, 3, 4))


def test_runtime_order_knows_where_a_swapped_read_is_ordered_after_the_one_before(tmp_path):
    """runtime_order walks the second iteration of a loop whose ``if`` tests its counter apart
    from the later ones: the read at i >= 2 is ordered after the one before (through the writer
    at i - 1), the reads at i = 0 and 1 are not (no writer ran between them)."""
    order, number = _order_after_hazards(SWAPPED_IN_AN_OUTER_LOOP, tmp_path)
    assert order.chained_from(number["copy0"]) == ("i", 2)
    assert not order.is_ordered(number["copy0"], number["copy0"])
