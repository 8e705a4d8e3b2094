"""A guard on a loop counter where the edge's task has not run in some walks (issue 24, seed
49054 of measure_generated): a compiler edge on a task's latest-run cell implied in the
iterations where the counter has a value, in each walk that ran that task, and inserting nothing
in the walks that did not (the cell holds none there), waits on a guard's cell set to no task
there (``RuntimeOrder.implied_each_run``). Before, a walk in which the task had not run took the
value away. Figures (tools/measure_edges.py) by hand, and the hazard checker on each trip
count."""

from __future__ import annotations

from test_lean_edges import TILE, checked_clean, insertions
from test_lean_loop_joins import HEADER

# In each of n iterations, the swap loop's acc writes its carry q: y0 at j = 0, y1 at j = 1
# (``pl.yield_(q, p)``); after it, add reads the loop's first result (y1) and writes y0. The
# compiler orders acc after add's latest run (add read y1, acc writes it), through add's
# latest-run cell: in the first outer iteration add has not run.
PROGRAM = HEADER + f"""    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x0: {TILE}, y0: pl.InOut[{TILE}], y1: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]) -> {TILE}:
        for i in pl.range(n):
            for j, (p, q) in pl.range(2, init_values=(y1, y0)):
                q = self.acc(x0, q)
                o1, o2 = pl.yield_(q, p)
            y0 = self.add(o1, x0, y0)
        return y0
"""


def test_an_edge_on_a_task_not_yet_run_in_the_first_outer_iteration_is_guarded_by_the_inner_counter():
    """At i = 0 add has not run: acc's edge inserts nothing. At i >= 1: acc at j = 0 writes y0
    and looks it up, finding add (an InOut writer of y0): the runtime orders it; acc at j = 1
    writes y1, which add read and never wrote: it waits for add (1). add looks up y1 (written by
    acc at j = 1) and y0 (written by acc at j = 0, then by add before): the runtime orders it.
    n - 1 insertions for n >= 1, none redundant; with the edge at j = 0 too: 2 (n - 1), n - 1
    of them redundant."""
    got = {n: insertions(PROGRAM, n) for n in range(5)}
    assert {n: (m.insertions, m.redundant, m.minimum, m.dummies) for n, m in got.items()} == {
        0: (0, 0, 0, 0), 1: (0, 0, 0, 0), 2: (1, 0, 1, 0), 3: (2, 0, 2, 0), 4: (3, 0, 3, 0)}
    checked_clean(PROGRAM, (0, 1, 2, 3))
