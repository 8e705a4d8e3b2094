"""A task in a branch that no iteration of its loop takes (the loop's bounds and the branch's
condition known): ``drop_implied_dependencies`` drops its compiler edges, and with them the
join barriers only it waited on. Figures (tools/measure_edges.py) computed by hand; the hazard
checker checks the program."""

from __future__ import annotations

from dsl_header import program
from test_lean_edges import TILE, checked_clean, insertions

# ``copy`` reads y in each of three iterations; ``acc`` would write y after them, on ``i > 2``,
# which no iteration of ``pl.range(3)`` has
WRITER_IN_A_BRANCH_NEVER_TAKEN = program(
    [f"copy(a: {TILE}, out: pl.Out[{TILE}])", f"acc(x: {TILE}, y: pl.InOut[{TILE}])"],
    f"x: {TILE}, y: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        for i in pl.range(3):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(y, t)
            if i > 2:
                y = self.acc(x, y)
        return y
""",
    returns=TILE,
)


def test_a_task_that_never_runs_keeps_no_edge_and_no_join_is_made_for_it():
    """By hand (n is unused): acc never runs, so nothing needs an edge: 0 insertions, 0 dummies,
    minimum 0. Without the rule acc waits on the join of copy's runs (each of its runs may have
    been before acc's and read y), built by a barrier after each run of copy: the first of one
    entry (not submitted: the join is that run), the second [run 1, run 2] and the third
    [barrier 2, run 3], 4 entries and 2 dummies that nothing that runs waits for."""
    for n in (0, 1):
        after = insertions(WRITER_IN_A_BRANCH_NEVER_TAKEN, n)
        assert (after.insertions, after.redundant, after.minimum, after.dummies) == (0, 0, 0, 0)
    checked_clean(WRITER_IN_A_BRANCH_NEVER_TAKEN, trips=(0, 1))
