"""A compiler edge of a task whose runs are chained, on a task outside two loops around it
(issue 24, seed 32182 of measure_generated): ``drop_implied_dependencies`` leaves it to
``drop_edges_after_first_run`` (one insertion per run of the source) rather than guarding it on
the inner loop's counter (one insertion per run of the inner loop). Figures
(tools/measure_edges.py) by hand, and the hazard checker on each trip count."""

from __future__ import annotations

from test_lean_edges import checked_clean, insertions

# first writes the slice big[0:8]; the inner loop's copy writes big[0:8] (i = 0) and big[8:16]
# (i = 1); acc reads big[0:8] and writes y. The compiler orders everything (a MANUAL scope).
NESTED = """# options: analyze_auto_scopes_for_deps=True
import nanopass.dsl as pl


@pl.program
class Nested:
    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

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
        for k in pl.range(n):
            s = pl.tensor.slice(big, [8, 8], [0, 0])
            s = self.copy(x, s)
            for j in pl.range(3):
                for i in pl.range(2):
                    r = pl.tensor.slice(big, [8, 8], [i * 8, 0])
                    r = self.copy(x, r)
                r0 = pl.tensor.slice(big, [8, 8], [0, 0])
                y = self.acc(r0, y)
        return y
"""


def figures(n: int) -> tuple:
    found = insertions(NESTED, n)
    return found.insertions, found.redundant, found.minimum, found.dummies


def test_a_chained_task_waits_for_a_task_outside_two_loops_on_its_first_run_only():
    """The inner copy's runs are chained (each waits for the one before, a latest-run cell);
    its edge on the first copy is implied at i = 1 (through the run at i = 0). A guard on ``i``
    would insert it at i = 0 in each of the 3 runs of the inner loop (j = 0, 1, 2), two of them
    redundant (through acc at j - 1); the first-run cell inserts it once per run of the first
    copy. By hand, n = 1 (10 tasks): the inner copy at (j, i) = (0, 0) waits for the first copy;
    at (j, 1) for (j, 0); acc at j for (j, 1); at (j, 0), j >= 1, for acc at j - 1 (its edge on
    (j - 1, 1), implied through acc, goes: clear_cells_after_waiters clears the copy's
    latest-run cell after acc, which waited on it): 1 + 3 + 3 + 2 = 9 insertions, none
    redundant, the minimum 9 (with the guard: 11, 2, 9). n = 2 adds the second k: the first copy
    waits for the last acc; (0, 0) for the first copy and for that acc (acc's once-cell, implied
    through the first copy: redundant), then as for k = 0 without (0, 0): 1 + 2 + 8 = 11 more,
    1 redundant: 20, 1, 19 (with the guard: 24, 5, 19)."""
    assert [figures(n) for n in (0, 1, 2)] == [(0, 0, 0, 0), (9, 0, 9, 0), (20, 1, 19, 0)]
    checked_clean(NESTED, trips=(0, 1, 2))
