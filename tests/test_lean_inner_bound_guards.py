"""A guard on an inner loop's lower bound beside an outer counter's (issue 24, seed 48092 of
measure_generated): a compiler edge of a task in a loop on a task ``S`` before that loop, in an
outer loop around both, implied where the inner counter is at least 1 (the task's previous run
came after ``S``) and where the outer counter is at least 1 (the task writes a carry that holds
what ``S`` wrote there), waits on a guard's cell set to no task where either holds. The lower
bound of a loop not around ``S`` was refused (``drop_edges_after_first_run`` inserts such an
edge on the first run after ``S``'s); with the outer counter beside it the guard inserts fewer.
Figures (tools/measure_edges.py) by hand, and the hazard checker on each trip count."""

from __future__ import annotations

from test_lean_edges import TILE, checked_clean, insertions
from test_lean_loop_joins import HEADER

# S (copy) reads y0 and writes y1 in each of n outer iterations; a while loop of n trips after
# it accumulates into the outer carry c: y0 in the first outer iteration, y1 (S's output) after.
PROGRAM = HEADER + f"""    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x0: {TILE}, y0: pl.InOut[{TILE}], y1: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]) -> {TILE}:
        for i, (c,) in pl.range(n, init_values=(y0,)):
            y1 = self.copy(y0, y1)
            for (j, d) in pl.while_(init_values=(0, c)):
                pl.cond(j < n)
                d = self.acc(x0, d)
                (j2, d2) = pl.yield_(j + 1, d)
            (o,) = pl.yield_(y1)
        return y0
"""


def test_a_guard_tests_an_inner_lower_bound_and_an_outer_one():
    """acc at (i, j) = (0, 0) writes y0, which S read: it waits for S (1). At (0, j >= 1) it
    looks y0 up and finds its previous run, after S. At (i >= 1, 0) it writes y1 and looks it up:
    S (an InOut writer of y1) is its producer; at (i >= 1, j >= 1) its previous run. S at i >= 1
    looks y0 up (acc's runs at i = 0 wrote it) and y1 (the latest acc wrote it): ordered by the
    runtime. 1 insertion for each n >= 1, none redundant; with the edge on every run of acc (no
    guard: neither counter alone may be tested) n * n, all but one redundant."""
    got = {n: insertions(PROGRAM, n) for n in range(5)}
    assert {n: (m.insertions, m.redundant, m.minimum, m.dummies) for n, m in got.items()} == {
        0: (0, 0, 0, 0), 1: (1, 0, 1, 0), 2: (1, 0, 1, 0), 3: (1, 0, 1, 0), 4: (1, 0, 1, 0)}
    checked_clean(PROGRAM, (0, 1, 2, 3))
