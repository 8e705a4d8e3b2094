"""Lean edges in loops (issue 24): a ``while`` whose counter, started from a constant and stepped
by a constant, alone decides its condition (its iterations are known before it runs), and a
tensor made in a loop body that the runs of an inner loop update. The figures are the emitted
program's (tools/measure_edges.py), computed by hand in each test; every program also passes the
hazard checker."""

from __future__ import annotations

from dsl_header import kernel, program
from test_lean_edges import JOIN_WAITERS, OFF, TILE, checked_clean, insertions

# copy's runs read w into tensors of their own in a while of three iterations (0, 1, 2); a writer
# of w after it
READERS_IN_A_WHILE_OF_THREE = """        for (i,) in pl.while_(init_values=(0,)):
            pl.cond(i < 3)
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(w, t)
            (j,) = pl.yield_(i + 1)
        w = self.acc(x, w)"""


def test_a_join_of_the_runs_of_a_counted_while_becomes_a_cell_per_iteration():
    """split_joins_by_iteration on a ``while``: the writer of w after the loop waits for each of
    the three runs of copy, which nothing orders among themselves (each writes a tensor of its
    own): the minimum is three entries. The join chains them through a barrier per run after
    the first (two entries each: 2 + 2, and the writer's one: five, two dummies); with the join's
    latest run apart (drop_latest_runs_from_joins) one barrier of two entries and the writer's
    two: four and a dummy. A cell per iteration (set under ``if i == 0`` / ``i == 1`` / else)
    holds each run, and the writer waits on the three cells: three entries, no dummy."""
    text = JOIN_WAITERS.replace("BODY", READERS_IN_A_WHILE_OF_THREE)
    before, after = insertions(text, 0, OFF), insertions(text, 0)
    assert (before.insertions, before.minimum, before.dummies) == (5, 3, 2)
    assert (after.insertions, after.redundant, after.minimum, after.dummies) == (3, 0, 3, 0)
    checked_clean(text, trips=(0,))


def test_a_while_its_counter_does_not_decide_keeps_its_join():
    """The same loop ending on ``i < n``: its iterations are not known before it runs, so no
    cell per iteration (n = 3: the join's barrier of two entries and the writer's two entries,
    one dummy)."""
    text = JOIN_WAITERS.replace("BODY", READERS_IN_A_WHILE_OF_THREE.replace("i < 3", "i < n"))
    after = insertions(text, 3)
    assert (after.insertions, after.minimum, after.dummies) == (4, 3, 1)
    checked_clean(text, trips=(0, 1, 3))


T8 = "pl.Tensor[[8, 8], pl.FP32]"

# A tensor created in an inner loop of a scope (hoisted before the scope, so made once per run of
# the outer loop: place_loop_allocations_before_scopes) that every run of ``two`` in the inner
# loop updates, with a slice of ``big``; ``add`` reads one slice after the inner loop.
HOISTED_IN_AN_OUTER_LOOP = program(
    [kernel(f"two(a: {T8}, o1: pl.Out[{T8}], o2: pl.Out[{T8}])", returns=f"tuple[{T8}, {T8}]", body="return o1, o2"),
     f"add(a: {T8}, b: {T8}, out: pl.Out[{T8}])"],
    f"x: {T8}, y: pl.InOut[{T8}], big: pl.InOut[pl.Tensor[[32, 8], pl.FP32]], n: pl.Scalar[pl.INT64]",
    f"""
        for i in pl.range(2):
            with pl.scope():
                for j in pl.range(4):
                    s = pl.tensor.slice(big, [8, 8], [(j % 4) * 8, 0])
                    t: {T8} = pl.create_tensor([8, 8], dtype=pl.FP32)
                    s, t = self.two(x, s, t)
                r = pl.tensor.slice(big, [8, 8], [(i % 4) * 8, 0])
                y = self.add(r, x, y)
        return y
""",
    returns=T8, name="Hoisted", options="analyze_auto_scopes_for_deps=True", auto_scope=False,
)


def test_a_tensor_made_in_an_outer_loop_orders_the_runs_of_an_inner_loop_that_update_it():
    """runtime_order shares the facts of a tensor bound in a loop body with its copies too
    (``rebound_names``; each new binding parts them, ``_Walker.detach``): the runs of ``two`` in
    one run of the scope all update the tensor made before the scope (``t``, hoisted), so the
    runtime orders each after the one before, and the compiler's chain of ``two``'s runs (a
    latest-run cell each run waits on: 3 entries a scope, 6) is the runtime's own. Needed: in
    each of the 2 runs of the outer loop, ``add`` after the run of ``two`` that wrote its slice
    of ``big`` (2), and the first run of ``two`` in the second after the ``add`` of the first,
    which read the slice it writes (1): 3, the minimum. Before: those 3, the 6 the runtime
    makes, and the first run of ``two`` in the second waits for the last of the first too
    (implied by its wait for ``add``): 10."""
    after = insertions(HOISTED_IN_AN_OUTER_LOOP, 0)
    assert (after.insertions, after.redundant, after.minimum, after.dummies) == (3, 0, 3, 0)
    checked_clean(HOISTED_IN_AN_OUTER_LOOP, trips=(0,))


# copy reads w into a tensor of its own in each iteration; an ``if n > 1`` (the same branch in
# every iteration) gives it to an InOut writer of y, else of z; a writer of w after the loop reads
# y and z
BRANCH_ON_A_PARAMETER = program(
    [f"add(a: {TILE}, b: {TILE}, out: pl.Out[{TILE}])",
     f"copy(a: {TILE}, out: pl.Out[{TILE}])",
     f"acc(a: {TILE}, y: pl.InOut[{TILE}])"],
    f"w: pl.InOut[{TILE}], y: pl.InOut[{TILE}], z: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        for i in pl.range(n):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(w, t)
            if n > 1:
                y = self.acc(t, y)
            else:
                z = self.acc(t, z)
        w = self.add(y, z, w)
        return w
""",
    returns=TILE, name="Invariant",
)


def test_an_if_on_a_parameter_in_a_loop_takes_one_branch_in_every_iteration():
    """runtime_order walks the function once per value of ``n > 1`` (``invariant_conditions``):
    where it holds, each run of copy is read by the acc of y after it, whose runs the runtime
    chains (InOut y), and the writer of w reads y: it is ordered after every run of copy; where
    it does not, likewise through z. The write-after-read join of copy's runs before the writer
    is the runtime's own order (minimum 0). One walk of both branches, met at the loop's header,
    knows only copy's older runs after the last acc of either (its latest run may have been
    read by the other's acc): with n = 2 the writer waits for copy's latest run (1 insertion, the
    join's older runs implied), with n = 3 for its join besides (3 insertions, a dummy)."""
    for n in (2, 3):
        after = insertions(BRANCH_ON_A_PARAMETER, n)
        assert (after.insertions, after.redundant, after.minimum, after.dummies) == (0, 0, 0, 0)
    checked_clean(BRANCH_ON_A_PARAMETER, trips=(0, 1, 2, 3))
