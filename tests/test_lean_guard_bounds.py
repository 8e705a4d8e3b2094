"""Guards of an edge implied where a counter says, of more kinds (issue 24):
``drop_implied_dependencies``'s guard also tests the trips' parity of a loop before the task
beside the innermost counter (``RuntimeOrder.implied_each``), whether a loop before the task
made a trip (``(RAN, k)``: the walk of the rest of the block from the exit where it made none
knows it), and a lower bound of the innermost counter where the loop's later iterations are
walked as one (``RuntimeOrder.implied_from``); where the edge is implied in the iterations after
the first of a loop around the counter's too (``first_iteration_loop``), the guard's cell copies
the cell that holds the TaskId in the first only. Figures (tools/measure_edges.py) computed by hand, with the
rule and without it; the hazard checker checks each program."""

from __future__ import annotations

import nanopass.passes.runtime_order as runtime_order

from dsl_header import header, orch
from test_lean_edges import checked_clean, insertions

T8 = "pl.Tensor[[8, 8], pl.FP32]"

KERNELS = header([f"copy(x: {T8}, out: pl.Out[{T8}])", f"acc(x: {T8}, y: pl.InOut[{T8}])",
                  f"add(a: {T8}, b: {T8}, y: pl.InOut[{T8}])"])

# The first loop swaps its carries: after an even number of trips b is y, after an odd one z.
# add reads b and writes y. The second loop swaps (b, w): acc writes w at j = 0, 2 and b at
# j = 1, after add read b: a write-after-read edge of acc on add.
PARITY_AND_COUNTER = KERNELS + orch(
    f"x: {T8}, y: pl.InOut[{T8}], z: pl.InOut[{T8}], w: pl.InOut[{T8}], n: pl.Scalar[pl.INT64]",
    """
        for i, (p, q) in pl.range(n, init_values=(z, y)):
            t = pl.create_tensor([8, 8], dtype=pl.FP32)
            t = self.copy(p, t)
            q = self.acc(t, q)
            (a, b) = pl.yield_(q, p)
        y = self.add(b, x, y)
        for j, (u, v) in pl.range(3, init_values=(b, w)):
            s = pl.create_tensor([8, 8], dtype=pl.FP32)
            s = self.copy(u, s)
            v = self.acc(s, v)
            (c, d) = pl.yield_(v, u)
        return y
""",
    returns=T8,
)

# acc(y, p) reads y and writes p, which is z in the first iteration and y in the later ones;
# acc(x, y) writes y after it: a write-after-read edge on the first acc, in every iteration.
LATER_ITERATIONS = KERNELS + orch(
    f"x: {T8}, y: pl.InOut[{T8}], z: pl.InOut[{T8}], n: pl.Scalar[pl.INT64]",
    """
        for i, (p,) in pl.range(n, init_values=(z,)):
            p = self.acc(y, p)
            y = self.acc(x, y)
            (q,) = pl.yield_(y)
        return y
""",
    returns=T8,
)

# acc reads y and writes z, which w names; a loop that may make no trip binds w to a new tensor;
# add reads w and writes y: a write-after-read edge of add on acc
NO_TRIP = KERNELS + orch(
    f"x: {T8}, y: pl.InOut[{T8}], z: pl.InOut[{T8}], n: pl.Scalar[pl.INT64]",
    f"""
        w = self.acc(y, z)
        for i in pl.range(n):
            w: {T8} = pl.create_tensor([8, 8], dtype=pl.FP32)
        y = self.add(w, x, y)
        return y
""",
    returns=T8,
)

# add reads x and z; in each of n outer iterations an inner loop of 3 swaps (x, z): copy writes
# z, x, z (an InOut: it looks the tensor up): a write-after-read edge of copy on add
OUTER_FIRST_ITERATION = KERNELS + orch(
    f"c: {T8}, x: pl.InOut[{T8}], y: pl.InOut[{T8}], z: pl.InOut[{T8}], n: pl.Scalar[pl.INT64]",
    """
        y = self.add(x, z, y)
        for i in pl.range(n):
            for j, (p, q) in pl.range(3, init_values=(x, z)):
                q = self.copy(c, q)
                (a, b) = pl.yield_(q, p)
        return y
""",
    returns=T8,
)


def figures(text: str, n: int) -> tuple:
    found = insertions(text, n)
    return found.insertions, found.redundant, found.minimum, found.dummies


def without_parity_beside_a_counter(monkeypatch):
    """``implied_each`` as before the rule: where a counter of the loop around the task has
    values, the trips' parity is not returned."""
    each = runtime_order.RuntimeOrder.implied_each

    def old(self, task, position, fence=None):
        found = each(self, task, position, fence)
        counters = [c for c in found if isinstance(c[0], str)]
        return counters or found
    monkeypatch.setattr(runtime_order.RuntimeOrder, "implied_each", old)


def test_a_guard_on_the_counter_tests_the_parity_of_a_loop_before_too():
    """By hand, n = 0: b is y; add reads and writes y; acc at j = 1 writes y, and its lookup
    finds add, the writer: the edge is the runtime's there; at j = 0, 2 acc writes w, which add
    never touched: no edge is needed, 0 insertions. n = 2: the first loop's copy reads z, then
    y (acc wrote it at i = 0); acc at i = 1 writes z: b is y again; add writes y after the copy
    at i = 1 read it: that edge (through copy's cell) is the one needed, 1 insertion; the second
    loop as for n = 0. n = 1 (n = 3 alike): b is z; add's edge on copy (which read z) is implied
    by its lookup of y, whose writer acc read copy's output: it goes there (a guard on the
    parity of an edge on copy's latest-run cell, test_lean_invariant_parity.py); acc at j = 1
    writes z, which add read: needed, inserted at j = 0 (acc at j = 1 reads the copy of w,
    which acc at j = 0 wrote after its edge): 1 insertion, none redundant, minimum 1.
    The guard tests j (the edge is implied at j = 1, 2 through the run at j = 0) and the parity
    (implied in every iteration after an even number of trips): without the parity the edge is
    inserted at j = 0 for n = 0 and n = 2 too, redundant there."""
    got = [figures(PARITY_AND_COUNTER, n) for n in (0, 1, 2, 3)]
    assert got == [(0, 0, 0, 0), (1, 0, 1, 0), (1, 0, 1, 0), (1, 0, 1, 0)]
    checked_clean(PARITY_AND_COUNTER, trips=(0, 1, 2, 3))


def test_without_the_parity_beside_the_counter_the_even_trips_insert_the_edge(monkeypatch):
    from nanopass.passes.drop_implied_dependencies import DropImpliedDependencies

    without_parity_beside_a_counter(monkeypatch)
    # (nor as a conjunction of j and the parity, which ``conjunctions`` finds where the walks say it)
    monkeypatch.setattr(DropImpliedDependencies, "conjunctions", lambda self, stmt, k, run, singles: [])
    got = [figures(PARITY_AND_COUNTER, n) for n in (0, 1, 2, 3)]
    assert got == [(1, 1, 0, 0), (1, 0, 1, 0), (2, 1, 1, 0), (1, 0, 1, 0)]


def test_an_edge_implied_in_the_later_iterations_of_its_loop_is_inserted_in_the_first():
    """By hand: at i = 0 the first acc reads y and writes z; the second writes y after that read:
    the edge is needed. At i >= 1 p is y: the first acc writes y (its lookup finds the second
    acc of the iteration before), and the second acc's lookup of y finds the first: the edge is
    the runtime's. The guard (``i >= 1``: no task) inserts it once: 1 insertion for n = 1, 2, 3,
    none redundant."""
    got = [figures(LATER_ITERATIONS, n) for n in (0, 1, 2, 3)]
    assert got == [(0, 0, 0, 0), (1, 0, 1, 0), (1, 0, 1, 0), (1, 0, 1, 0)]
    checked_clean(LATER_ITERATIONS, trips=(0, 1, 2, 3))


def test_without_the_lower_bound_every_iteration_inserts_the_edge(monkeypatch):
    """Without ``implied_from`` the edge is inserted in each of the n iterations, n - 1 of them
    redundant."""
    monkeypatch.setattr(runtime_order.RuntimeOrder, "implied_from", lambda self, task, position, fence=None: [])
    got = [figures(LATER_ITERATIONS, n) for n in (0, 1, 2, 3)]
    assert got == [(0, 0, 0, 0), (1, 0, 1, 0), (2, 1, 1, 0), (3, 2, 1, 0)]


def test_an_edge_implied_where_a_loop_before_made_no_trip_is_inserted_where_it_made_some():
    """By hand: n = 0: w is z, which acc wrote: add's lookup of w finds acc, the edge is the
    runtime's, 0 insertions. n >= 1: w is a tensor no task wrote, and add's other lookups (x,
    y) find no writer: the edge is needed, 1 insertion."""
    got = [figures(NO_TRIP, n) for n in (0, 1, 2)]
    assert got == [(0, 0, 0, 0), (1, 0, 1, 0), (1, 0, 1, 0)]
    checked_clean(NO_TRIP, trips=(0, 1, 2))


def test_without_the_trips_of_the_loop_before_the_edge_is_inserted_where_it_made_none(monkeypatch):
    monkeypatch.setattr(runtime_order._Walker, "trips_any", lambda self, loop, paths: [None] * paths)
    got = [figures(NO_TRIP, n) for n in (0, 1, 2)]
    assert got == [(1, 1, 0, 0), (1, 0, 1, 0), (1, 0, 1, 0)]


def test_a_guard_on_the_inner_counter_inserts_the_edge_in_the_first_outer_iteration_only():
    """By hand: copy's lookup finds the tensor's last writer. (i = 0, j = 0) writes z and (0, 1)
    x, which no task wrote: both need the edge on add. (0, 2) writes z after (0, 0), which
    waited for add; in every later outer iteration copy writes z, x, z after the runs of the
    iteration before, which did: implied. 2 insertions for each n >= 1, none redundant. The
    guard tests j (2: no task, else the cell that holds add's TaskId in the first outer
    iteration only)."""
    got = [figures(OUTER_FIRST_ITERATION, n) for n in (0, 1, 2, 3)]
    assert got == [(0, 0, 0, 0), (2, 0, 2, 0), (2, 0, 2, 0), (2, 0, 2, 0)]
    checked_clean(OUTER_FIRST_ITERATION, trips=(0, 1, 2, 3))


def test_without_the_first_outer_iteration_the_guard_inserts_the_edge_in_each(monkeypatch):
    """Without ``first_iteration_loops`` and the outer counter's lower bound (``implied_from``:
    ``i >= 1``, which the guard tests beside j where it has it) the guard on j alone inserts the
    edge at j = 0, 1 of every outer iteration: 2n insertions, 2(n - 1) redundant."""
    from nanopass.passes.drop_implied_dependencies import DropImpliedDependencies

    monkeypatch.setattr(DropImpliedDependencies, "first_iteration_loops", lambda self, program: {})
    monkeypatch.setattr(runtime_order.RuntimeOrder, "implied_from", lambda self, task, position, fence=None: [])
    # (nor the lower bound as ``conjunctions`` finds it from the walks)
    monkeypatch.setattr(DropImpliedDependencies, "conjunctions", lambda self, stmt, k, run, singles: [])
    got = [figures(OUTER_FIRST_ITERATION, n) for n in (0, 1, 2, 3)]
    assert got == [(0, 0, 0, 0), (2, 0, 2, 0), (4, 2, 2, 0), (6, 4, 2, 0)]
