"""``runtime_order`` knows which task's latest run a cell holds after a store the walk sees (a
cell of a guard, a first-run cell: no latest-run cell), until that task runs again (issue 24).
Figures (tools/measure_edges.py) computed by hand; the hazard checker checks the program."""

from __future__ import annotations

from dsl_header import program
from test_lean_edges import checked_clean, insertions

T8 = "pl.Tensor[[8, 8], pl.FP32]"

# a MANUAL scope (derived dependencies): per iteration of the outer loop, step writes y twice,
# acc reads y and writes z, acc reads z and writes y
STEPS_THEN_ACCS = program(
    [f"step(x: {T8}, y: pl.InOut[{T8}])", f"acc(x: {T8}, y: pl.InOut[{T8}])"],
    f"x: {T8}, y: pl.InOut[{T8}], z: pl.InOut[{T8}], n: pl.Scalar[pl.INT64]",
    """
        for i in pl.range(n):
            for j in pl.range(2):
                y = self.step(x, y)
            z = self.acc(y, z)
            y = self.acc(z, y)
        return y
""",
    returns=T8, options="analyze_auto_scopes_for_deps=True",
)


def test_an_edge_implied_through_a_first_run_cell_goes():
    """By hand: no order comes from the runtime (a MANUAL scope). Per iteration i the covering
    pairs are step(j=0) -> step(j=1), step(j=1) -> the first acc, the first acc -> the second;
    from i = 1 on also the second acc of i - 1 -> step(j=0) (y); the first acc's write after
    the second acc's read of z one iteration before is implied through the steps. Minimum
    3n + (n - 1). Without the walk knowing the first-run cell through which step waits for the
    second acc (drop_edges_after_first_run's), step(j=0) also waits for step's latest run (j=1
    of i - 1), which the second acc came after: n - 1 more, redundant. With it: the minimum."""
    for n in range(4):
        got = insertions(STEPS_THEN_ACCS, n)
        want = 4 * n - 1 if n else 0
        assert (got.insertions, got.redundant, got.minimum, got.dummies) == (want, 0, want, 0)
    checked_clean(STEPS_THEN_ACCS, trips=(0, 1, 2, 3))
