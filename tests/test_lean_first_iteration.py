"""A compiler edge of a task on its own previous run, which the runtime makes needless on the
later iterations of its loop (issue 24): ``drop_edges_after_first_run`` routes it through a cell
copied from the task's cell before the loop and cleared after the task. Figures
(tools/measure_edges.py) computed by hand; the hazard checker checks the program."""

from __future__ import annotations

from test_lean_edges import TILE, checked_clean, insertions

# each iteration of the parallel loop makes a tensor q that ``copy`` reads and writes (Out) n
# times in a while; q is written after the loop, so ``copy`` waits on its latest run (a
# write-after-read edge through a cell: the buffers of two iterations may be one)
COPY_IN_A_WHILE = f"""import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, x: {TILE}, out: pl.Out[{TILE}]) -> {TILE}:
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, x: {TILE}, y: pl.InOut[{TILE}]) -> {TILE}:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: {TILE}, y: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]) -> {TILE}:
        q = x
        for k in pl.parallel(0, 4, 2):
            q = pl.create_tensor([16, 16], dtype=pl.FP32)
            for (j,) in pl.while_(init_values=(0,)):
                pl.cond(j < n)
                q = self.copy(q, q)
                (w,) = pl.yield_(j + 1)
        y = self.acc(q, y)
        return y
"""


def test_an_edge_on_the_own_previous_run_is_inserted_on_the_first_iteration_of_each_run_of_the_loop():
    """By hand, n >= 1: copy runs 2n times, n per run of the while. Without the rule it waits on
    its latest run on every run but the very first: 2n - 1 insertions; the runtime orders each
    later iteration's run after the run before (it looks up q, which that run wrote): 2(n - 1)
    redundant; minimum 1 (the first run of the second while on the last of the first). With the
    rule the first while's first run finds the copied cell empty and the later runs find it
    cleared: 1 insertion for any n >= 1, none for n = 0."""
    for n in range(4):
        after = insertions(COPY_IN_A_WHILE, n)
        assert (after.insertions, after.redundant, after.minimum, after.dummies) == (min(n, 1), 0, min(n, 1), 0)
    checked_clean(COPY_IN_A_WHILE, trips=(0, 1, 2, 3))
