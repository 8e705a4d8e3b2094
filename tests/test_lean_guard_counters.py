"""A derived edge implied where the innermost loop's counter has some values, and also where an
outer loop's counter has others (issue 24): ``drop_implied_dependencies``'s guard tests both
(``RuntimeOrder.implied_each``). Figures (tools/measure_edges.py) computed by hand; the hazard
checker checks the program."""

from __future__ import annotations

from dsl_header import program
from test_lean_edges import checked_clean, insertions

T8 = "pl.Tensor[[8, 8], pl.FP32]"

# copy reads y in each of two iterations (i = 0, 2); acc writes y after it where i == 0; step
# writes y three times in a while of constant trips after them
OUTER_BRANCH = program(
    [f"copy(x: {T8}, out: pl.Out[{T8}])", f"acc(x: {T8}, y: pl.InOut[{T8}])", f"step(x: {T8}, y: pl.InOut[{T8}])"],
    f"x: {T8}, y: pl.InOut[{T8}], n: pl.Scalar[pl.INT64]",
    """
        for i in pl.range(0, 4, 2):
            t = pl.create_tensor([8, 8], dtype=pl.FP32)
            t = self.copy(y, t)
            if i == 0:
                y = self.acc(x, y)
            for (j,) in pl.while_(init_values=(0,)):
                pl.cond(j < 3)
                y = self.step(x, y)
                (w,) = pl.yield_(j + 1)
        return y
""",
    returns=T8,
)


def test_a_guard_tests_the_outer_counter_too():
    """By hand: step writes y, which copy read: a write-after-read edge of step on copy, on each
    of its 6 runs. Where j >= 1 step looks up y, whose last writer is its own run before (after
    copy); where i == 0 and j == 0 it finds acc (which waits for copy, a write after read too).
    Only (i = 2, j = 0) needs the edge: with the guard on j alone (j is 1, 2) step inserts it
    at j = 0 in both iterations, 1 of them redundant: 3 insertions (acc's edge included), 1
    redundant, minimum 2. With i == 0 tested too: 2 insertions, 0 redundant, minimum 2."""
    got = insertions(OUTER_BRANCH, 3)
    assert (got.insertions, got.redundant, got.minimum, got.dummies) == (2, 0, 2, 0)
    checked_clean(OUTER_BRANCH, trips=(0, 3))
