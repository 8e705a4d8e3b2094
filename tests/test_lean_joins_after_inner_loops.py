"""The join of a reader in a ``pl.parallel`` loop of a few known iterations, itself in a loop,
whose waiter after it runs in a loop or a branch the loop counters decide (issue 24, seed
45065): the join becomes a cell per iteration, cleared after the waiter, as where the waiter
stands in the outer loop's body itself. The figures are the emitted program's
(tools/measure_edges.py), computed by hand; every program also passes the hazard checker."""

from __future__ import annotations

from dsl_header import header, orch
from test_lean_edges import TILE, checked_clean, insertions

HEADER = header([f"copy(a: {TILE}, out: pl.Out[{TILE}])", f"acc(a: {TILE}, y: pl.InOut[{TILE}])"])

# Each iteration of the inner loop reads y (R); from its second on it writes y (W, ordered after
# its own iteration's R by an edge: the iterations of ``pl.parallel`` are not ordered). The
# writer of y after the inner loop (V, its result a new name) must follow the three reads; it
# stands in a loop of three trips.
WAITER_IN_LOOP = HEADER + orch(
    f"x: {TILE}, y: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        for j in pl.parallel(1, 4):
            for i in pl.parallel(3):
                t = pl.create_tensor([16, 16], dtype=pl.FP32)
                t = self.copy(y, t)
                if i > 0:
                    y = self.acc(x, y)
            for k in pl.range(0, 6, 2):
                w = self.acc(x, y)
        return y
""",
    returns=TILE,
)

# As above, V in the branch of ``if j == 0`` that every iteration of ``j`` (1, 2, 3) takes (its
# else).
WAITER_IN_BRANCH = HEADER + orch(
    f"x: {TILE}, y: pl.InOut[{TILE}], z: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        for j in pl.parallel(1, 4):
            for i in pl.parallel(3):
                t = pl.create_tensor([16, 16], dtype=pl.FP32)
                t = self.copy(y, t)
                if i > 0:
                    y = self.acc(x, y)
            if j == 0:
                z = self.acc(x, z)
            else:
                for k in pl.range(0, 6, 2):
                    w = self.acc(x, y)
        return y
""",
    returns=TILE,
)

# As WAITER_IN_BRANCH, but ``if j == 1``: V is not reached after the first run of the inner
# loop, whose reads the second run's V must still wait for: the join stays.
WAITER_IN_SOME_ITERATIONS = WAITER_IN_BRANCH.replace("if j == 0:", "if j == 1:")


def test_waiter_in_a_loop():
    # (a guard: another rule already reaches the minimum here) A run of j: W's edges on the
    # read of its iteration (2) and V's first run on R0 (the runtime orders V after the W runs,
    # so after R1 and R2): 3; 9 in all, the minimum.
    figures = insertions(WAITER_IN_LOOP, 3)
    assert (figures.insertions, figures.dummies, figures.minimum) == (9, 0, 9)
    checked_clean(WAITER_IN_LOOP, trips=(1, 3))


def test_waiter_in_a_decided_branch_waits_on_a_cell_per_iteration():
    # A run of j: W's 2 derived edges; V's first run waits on the cell of R0 (1; those of R1
    # and R2 go, drop_cells_implied_through_edges: V looks up y and finds W(i=2), which waited
    # on R2 and looked up W(i=1), which waited on R1), cleared after it: 3 entries, no dummy; 9
    # in all, the minimum (3 a run of j, above). Before (the lagged join): W's 2, the barrier of
    # R0 and R1 before R2 (2 entries and a dummy), V on the join and the latest-run cell (2): 6
    # and a dummy a run of j, 18 and 3; with the cells of the three reads, 5 a run of j, 15.
    figures = insertions(WAITER_IN_BRANCH, 3)
    assert (figures.insertions, figures.by_kind["barrier"], figures.dummies, figures.minimum) == (9, 0, 0, 9)
    checked_clean(WAITER_IN_BRANCH, trips=(1, 3))


def test_waiter_in_an_undecided_branch_keeps_the_join():
    # The join is not split: its barriers stay (a dummy at least where R2 runs after R0 and R1
    # of the same run of j, each run).
    figures = insertions(WAITER_IN_SOME_ITERATIONS, 3)
    assert figures.by_kind["barrier"] > 0 and figures.dummies >= 3
    checked_clean(WAITER_IN_SOME_ITERATIONS, trips=(1, 3))
