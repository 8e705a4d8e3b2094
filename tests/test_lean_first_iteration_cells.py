"""A compiler edge of a task in a loop on a task outside it, through the source's latest-run
cell (the source is in a loop of its own), implied in the loop's iterations after its first
(issue 24, seed 36058 of measure_generated): ``drop_implied_dependencies`` inserts it through a
copy of that cell made before the loop and cleared at the end of its first iteration, as it
does a derived edge; ``merge_cells_into_chains`` leaves a copied cell alone. Figures
(tools/measure_edges.py) by hand, and the hazard checker on each trip count."""

from __future__ import annotations

from test_lean_edges import checked_clean, insertions

# acc at j reads rows 8-15 of big and writes y (two runs: its TaskId goes through a latest-run
# cell); in each iteration k the inner loop's acc writes rows 8i to 8i + 7 of big (an InOut:
# it looks them up). The compiler orders each inner run after the outer acc's latest run.
FIRST_ITERATION_CELL = """import nanopass.dsl as pl


@pl.program
class FirstIteration:
    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, a: pl.Tensor[[8, 8], pl.FP32], acc: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], acc)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.Tensor[[8, 8], pl.FP32],
        y: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
        big: pl.InOut[pl.Tensor[[32, 8], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        for j in pl.range(2):
            s = pl.tensor.slice(big, [8, 8], [8, 0])
            y = self.acc(s, y)
        for k in pl.range(n):
            for i in pl.range(4):
                r = pl.tensor.slice(big, [8, 8], [i * 8, 0])
                r = self.acc(x, r)
        return y
"""


def figures(n: int) -> tuple:
    found = insertions(FIRST_ITERATION_CELL, n)
    return found.insertions, found.redundant, found.minimum, found.dummies


def test_an_edge_on_a_latest_run_cell_implied_after_the_first_iteration_is_inserted_in_the_first():
    """By hand: the inner acc at (k, i) waits for the outer acc at j = 1 (which came after j = 0,
    its lookup of y): 4 insertions at k = 0; at k >= 1 its lookup of its rows finds the inner
    acc at (k - 1, i), which waited: redundant. So 4 insertions, none redundant, minimum 4, for
    each n >= 1; before the rule 4n, 4(n - 1) of them redundant: (8, 4, 4, 0), (12, 8, 4, 0) for
    n = 2, 3."""
    assert [figures(n) for n in (0, 1, 2, 3)] == [(0, 0, 0, 0)] + [(4, 0, 4, 0)] * 3
    checked_clean(FIRST_ITERATION_CELL, trips=(0, 1, 2, 3))
