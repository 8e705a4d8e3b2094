"""The join of a task's runs in a loop of a few iterations known before it runs, inside a loop
of unknown trips, whose waiter after it is cleared (issue 24, seed 37117):
``drop_latest_runs_from_joins`` keeps the runs in a cell per iteration, cleared after the
waiter, where the lagged join would submit a barrier and insert more. Figures
(tools/measure_edges.py) computed by hand; the hazard checker checks each program on its trip
counts."""

from __future__ import annotations

from test_lean_edges import checked_clean, insertions

T8 = "pl.Tensor[[8, 8], pl.FP32]"


def program(trips: int, waiter: str) -> str:
    """In each of ``n`` iterations, ``trips`` runs of ``make`` read ``y`` (each into a tensor of
    its own: no run is ordered after another), then ``waiter`` (``y = self.add(x, y)``, an
    InOut writer of ``y``, under a condition or not) writes ``y``: it waits for every run of
    ``make`` before it (write after read), which the runtime does not order it after."""
    return f"""import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def make(self, a: {T8}, out: pl.Out[{T8}]) -> {T8}:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        return pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.AIV)
    def add(self, a: {T8}, acc: pl.InOut[{T8}]) -> {T8}:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        return pl.store(t, [0, 0], acc)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: {T8}, y: pl.InOut[{T8}], n: pl.Scalar[pl.INT64]) -> {T8}:
        for i in pl.range(n):
            for j in pl.range({trips}):
                t: {T8} = pl.create_tensor([8, 8], dtype=pl.FP32)
                t = self.make(y, t)
{waiter}
        return y
"""


EVERY = program(3, "            y = self.add(x, y)")
TWO = program(2, "            y = self.add(x, y)")
SOME = program(3, "            if i % 2 == 0:\n                y = self.add(x, y)")


def figures(text: str, n: int) -> tuple:
    got = insertions(text, n)
    return got.insertions, got.redundant, got.minimum, got.dummies


def test_a_join_in_a_loop_of_three_inside_a_loop_of_unknown_trips_becomes_three_cells():
    """By hand, EVERY: each outer iteration's add waits for the 3 runs of make before it: 3
    needed pairs an iteration (those of the iteration before are ordered before the add before
    it, which the runtime orders this one after), 3n in all. The lagged join inserts 1 entry at
    the second run and 2 and a dummy at the third, and add waits on it and the latest run: 5 and
    a dummy an iteration. With the rule add waits on the 3 cells of the iteration: 3n
    insertions, no dummy."""
    for n in range(4):
        assert figures(EVERY, n) == (3 * n, 0, 3 * n, 0)
    checked_clean(EVERY, trips=(0, 1, 2, 3))


def test_a_join_of_two_runs_keeps_the_lagged_join_which_costs_as_much():
    """By hand, TWO: the lagged join's barrier at the second run holds the first run alone (a
    barrier of one entry is not submitted), and add waits on it and the latest run: 2 an
    iteration, as 2 cells would: the rule leaves it. 2n insertions, the minimum, no dummy."""
    for n in range(4):
        assert figures(TWO, n) == (2 * n, 0, 2 * n, 0)
    checked_clean(TWO, trips=(0, 1, 2, 3))


def test_a_waiter_under_a_condition_leaves_the_join_as_it_was():
    """SOME: the waiter runs in the even iterations only, so the runs of an odd one must stay
    joined until the next even one: no cell per iteration (the hazard checker on its trips)."""
    checked_clean(SOME, trips=(0, 1, 2, 3))
