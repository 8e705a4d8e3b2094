"""A lagged join (its waiters ordered after the task's latest run, or waiting on its latest-run
cell too) of a task in a loop ``L`` of a few iterations known before it runs, ``L`` in an outer
loop and every waiter outside ``L`` (drop_latest_runs_from_joins' ``fold_lagged``, issue 24;
the nests grammar's readers in a ``pl.range(2)`` of an outer ``pl.range(n)``, their writer after
the nest, seed 70000060): each iteration but the last keeps its run in a cell, and in the last,
before the run, one barrier joins the join, the latest-run cell and those cells (``T + 1``
entries and a dummy a run of ``L``, where the lagged join chained a barrier of two entries
before each run). The figures are the emitted program's (tools/measure_edges.py), computed by
hand in each test; every program also passes the hazard checker."""

from __future__ import annotations

from test_lean_edges import checked_clean, insertions

ROW = "pl.Tensor[[8, 8], pl.FP32]"


def nest(trips: int, guard: str = "") -> str:
    """``n`` runs of a loop of ``trips`` runs of ``add`` (each reading ``a`` into a tensor of its
    own; under ``guard``, where given), then one writer of ``a`` after the nest: it waits on
    every run of ``add`` (the runtime orders no write after a read), the latest one too."""
    body = "t = self.add(a, b, t)" if not guard else f"if {guard}:\n                    t = self.add(a, b, t)"
    return f"""import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def add(self, a: {ROW}, b: {ROW}, out: pl.Out[{ROW}]) -> {ROW}:
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, a: {ROW}, y: pl.InOut[{ROW}]) -> {ROW}:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: {ROW}, a: pl.InOut[{ROW}], b: pl.InOut[{ROW}], n: pl.Scalar[pl.INT64]) -> {ROW}:
        for i in pl.range(n):
            for j in pl.range({trips}):
                t: {ROW} = pl.create_tensor([8, 8], dtype=pl.FP32)
                {body}
        a = self.acc(x, a)
        return a
"""


def figures(text: str, n: int):
    f = insertions(text, n)
    return f.insertions, f.redundant, f.dummies, f.minimum


def test_a_loop_of_two_joins_a_run_of_it_once_before_its_last_iteration():
    """T = 2. n = 1: the barrier before the second run joins the empty join, the empty
    latest-run cell and the first run's cell: one entry, not submitted (the join takes that run);
    the writer waits on the join and the latest-run cell: 2, the minimum (each run before the
    writer). n = 2: the second outer iteration's barrier joins the join, the latest run (the
    first iteration's second) and its first run: 3 and a dummy; the writer 2: 5, against 4 pairs.
    n = 3: 0 + 3 + 3 + 2 = 8, 2 dummies, against 6. The lagged join cost 2 entries and a dummy
    before each run but the first two, and the writer's 2: 2, 6, 10 (4 dummies at n = 3); the
    fold after the loop (2 entries from the empty join, 3 later, the writer 1) 3, 6, 9."""
    text = nest(2)
    assert figures(text, 0) == (0, 0, 0, 0)
    assert figures(text, 1) == (2, 0, 0, 2)
    assert figures(text, 2) == (5, 0, 1, 4)
    assert figures(text, 3) == (8, 0, 2, 6)
    checked_clean(text, (0, 1, 2, 3))


def test_a_run_under_the_loop_counter_keeps_the_lagged_join():
    """``if j == 0``: the task runs in the first iteration of a run of ``L`` and not in the
    last, where the barrier would stand; the join stays lagged: one run an outer iteration, so
    the barrier before the run of the second outer iteration holds the latest run alone (not
    submitted), and the writer waits on the join and the latest-run cell. n = 2: 0 + 0 + 2 = 2,
    the minimum (two runs); n = 3: the third run's barrier joins the join and the latest: 2 and a
    dummy, and the writer 2: 4, against 3 pairs."""
    text = nest(2, "j == 0")
    assert figures(text, 2) == (2, 0, 0, 2)
    assert figures(text, 3) == (4, 0, 1, 3)
    checked_clean(text, (0, 1, 3))


def test_a_run_under_an_outer_counter_joins_once_a_run_of_the_loop():
    """``if i % 2 == 0`` reads no name the inner loop binds: the task runs in every iteration of
    a run of ``L`` or in none, and the join is folded as in the first test. n = 3: runs in outer
    iterations 0 and 2; the barrier of iteration 0 holds one entry (not submitted), that of
    iteration 2 the join, the latest run and its first run: 3 and a dummy; the writer 2: 5,
    against 4 pairs (the lagged join: 0 + 0 + 2 + 2 + 2 = 6, 2 dummies)."""
    text = nest(2, "i % 2 == 0")
    assert figures(text, 3) == (5, 0, 1, 4)
    checked_clean(text, (0, 1, 3))
