"""A loop carry that may hold a ``manual_dep`` tensor (``runtime_order.manual_dep_names``) but
holds a tracked one in the iteration the walk is in (swapped with it, the loop walked iteration
by iteration): a task's lookup and write of it count there (``_Walker.tracked_here``). Figures
(tools/measure_edges.py) computed by hand; the hazard checker checks the program."""

from __future__ import annotations

from dsl_header import program
from test_lean_edges import TILE, checked_clean, insertions

# ``p`` is y in the first iteration and the manual_dep tensor m in the second, ``q`` the other
# way round: ``copy`` reads y, then m (no lookup); ``acc`` writes y in the second iteration
SWAPPED_WITH_A_MANUAL_DEP_TENSOR = program(
    [f"copy(a: {TILE}, out: pl.Out[{TILE}])", f"acc(x: {TILE}, y: pl.InOut[{TILE}])"],
    f"x: {TILE}, y: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        m = pl.create_tensor([16, 16], dtype=pl.FP32, manual_dep=True)
        for i, (p, q) in pl.range(2, init_values=(y, m)):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(p, t)
            if i >= 1:
                q = self.acc(t, q)
            a, b = pl.yield_(q, p)
        y = self.acc(x, y)
        return y
""",
    returns=TILE,
)


def test_a_write_through_a_carry_swapped_with_a_manual_dep_tensor_orders_the_tasks_after_it():
    """By hand (n is unused): i = 0, copy reads y. i = 1, copy reads m (no lookup) and writes t;
    acc looks up t (after copy's second run) and writes y after copy's first run read it: 1
    needed edge, the minimum. The acc after the loop writes y after copy's first run read it,
    and its lookup of y finds the loop's acc, which came after both runs of copy: no edge
    needed. With the rule: 1 insertion. Without it the loop's acc wrote a name that may hold m,
    untracked, and the last acc kept its edges on copy's two runs (both may have read y): 3
    insertions, 2 redundant."""
    for n in (0, 1):
        after = insertions(SWAPPED_WITH_A_MANUAL_DEP_TENSOR, n)
        assert (after.insertions, after.redundant, after.minimum, after.dummies) == (1, 0, 1, 0)
    checked_clean(SWAPPED_WITH_A_MANUAL_DEP_TENSOR, trips=(0, 1))
