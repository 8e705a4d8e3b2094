"""A guard on an inner loop's lower bound beside a first-iteration cell (issue 24, seed 50046 of
measure_generated): a compiler edge of a task in a loop in a loop on a task ``S`` before both,
implied in the outer loop's iterations after its first (``first_iteration_loop``: a cell that
holds ``S``'s TaskId in the first only) and in the inner loop's iterations from its second on
(``RuntimeOrder.implied_from``: the inner loop walked as a first and later iterations), waits on
a guard's cell set to no task where the inner counter is at least that bound, else to what the
first-iteration cell holds. The lower bound of a loop not around ``S`` was refused since a guard
on it alone inserts the edge once per run of the inner loop; beside the first-iteration cell it
inserts no more than that cell. Figures (tools/measure_edges.py) by hand, and the hazard checker
on each trip count."""

from __future__ import annotations

from test_lean_edges import TILE, checked_clean, insertions
from test_lean_loop_joins import HEADER

# S reads rows 16-31 of big (s0) and writes y0. The inner loop's task writes its carry q, s0 at
# j = 0 and y0 (the yield's second value) from j = 1 on. The outer loop's ``if i == 0`` has it
# walked iteration by iteration, which leaves the inner loop (3 x 3 iterations, past the budget
# of 8) walked as its first iteration and the later ones.
PROGRAM = HEADER + f"""    @pl.function(type=pl.FunctionType.AIV)
    def scale(self, a: {TILE}, y: pl.InOut[{TILE}], s: pl.Scalar[pl.INT64]) -> {TILE}:
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def add2(self, a: {TILE}, b: {TILE}, y: pl.InOut[{TILE}]) -> {TILE}:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x0: {TILE}, x1: {TILE}, y0: pl.InOut[{TILE}], big: pl.InOut[pl.Tensor[[32, 16], pl.FP32]],
             n: pl.Scalar[pl.INT64]) -> {TILE}:
        s0 = pl.tensor.slice(big, [16, 16], [16, 0])
        y0 = self.scale(s0, y0, n)
        for i in pl.range(3):
            for j, (p, q) in pl.range(3, init_values=(x1, s0)):
                q = self.add2(x1, x0, q)
                o1, o2 = pl.yield_(q, y0)
            if i == 0:
                h = pl.tensor.read(x1, [0, 0])
        return y0
"""


def test_the_guard_on_the_inner_lower_bound_takes_the_first_iteration_cell():
    """The task at (i, j) = (0, 0) writes s0, which S reads: it waits for S (1). At (0, 1) it
    writes y0 and looks it up: S is its producer (the runtime orders it); at (0, 2) it finds the
    run at (0, 1). At (i >= 1, 0) it looks s0 up and finds the run at (i - 1, 0), after S; at
    (i >= 1, j >= 1) the run before it on y0. Nothing else needs an edge (the task reads only
    parameters no task writes): 1 insertion, none redundant. With the first-iteration cell alone
    the edge is inserted at (0, 0), (0, 1) and (0, 2): 3, 2 of them redundant."""
    for n in (0, 1, 2):
        figures = insertions(PROGRAM, n)
        assert (figures.insertions, figures.redundant, figures.minimum, figures.dummies) == (1, 0, 1, 0)
    checked_clean(PROGRAM, (0, 1, 2))
