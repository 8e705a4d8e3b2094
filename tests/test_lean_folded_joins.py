"""The join of a task's runs in a loop ``L`` of a few iterations known before it runs, in an
outer loop, whose waiters are all outside ``L`` and none of which clears the join after every run
of ``L`` (drop_latest_runs_from_joins, issue 24): each iteration keeps its run in a cell, and one
barrier after ``L`` joins the join and the cells (``T + 1`` entries and a dummy a run of ``L``),
where the lagged join chained a barrier of two entries and a dummy before each run. The figures
are the emitted program's (tools/measure_edges.py), computed by hand in each test; every program
also passes the hazard checker."""

from __future__ import annotations

from test_lean_edges import checked_clean, insertions

ROW = "pl.Tensor[[8, 8], pl.FP32]"


def readers(trips: int, outer: int) -> str:
    """``outer`` runs of a loop of ``trips`` runs of ``add``, each reading ``a`` and ``b``; after
    each, a loop of ``n`` writers of ``a`` (the compiler orders the first after every run of
    ``add`` so far: they read ``a``, and the runtime orders no write after a read). The writer may
    make no trip, so no waiter clears the join after every run of the inner loop."""
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
        for i in pl.range({outer}):
            for j in pl.range({trips}):
                t: {ROW} = pl.create_tensor([8, 8], dtype=pl.FP32)
                t = self.add(a, b, t)
            for k in pl.range(n):
                a = self.acc(x, a)
        return a
"""


def figures(text: str, n: int):
    f = insertions(text, n)
    return f.insertions, f.redundant, f.dummies, f.minimum


def test_a_loop_of_four_in_a_loop_of_three_folds_its_runs_once_a_run():
    """T = 4, three outer iterations. With no trip of the writer's loop (n = 0) nothing waits:
    the folds cost 4 entries (the join empty), then 5 and 5 (the join and four cells): 14, 3
    dummies, all dead. The lagged join chained a barrier before each of the 12 runs: none
    before the first, one entry (not submitted) before the second, two and a dummy before each
    of the other ten: 20 entries, 10 dummies. With a trip (n = 1, 2) the writer waits on the
    join (1 entry), after which it is cleared (the writer's later runs and the next outer
    iteration's are ordered after it): 4 + 1 an outer iteration, 15, 3 dummies, against 12 pairs
    needed (each run of add before the writer of its outer iteration); the lagged join cost 0 +
    0 + 2 + 2 in barriers and 2 in the writer's entries (the join and the latest-run cell) an
    outer iteration: 18, 6 dummies."""
    text = readers(4, 3)
    assert figures(text, 0) == (14, 14, 3, 0)
    assert figures(text, 1) == (15, 0, 3, 12)
    assert figures(text, 2) == (15, 0, 3, 12)
    checked_clean(text, (0, 1, 2))


def test_a_loop_of_three_folds_where_the_writer_waits_on_the_latest_run_too():
    """T = 3, two outer iterations: the folds cost 3 and 4 entries, a dummy each: 7 with no
    trip (the lagged join: 0 + 1 + 2 + 2 + 2 + 2 less the unsubmitted one, 8, 4 dummies). With
    a trip, 3 + 1 an outer iteration, 8 and 2 dummies, as the lagged join's 2 + 2 (the writer
    waits on its latest-run cell too: ``T >= 4 - 1``)."""
    text = readers(3, 2)
    assert figures(text, 0) == (7, 7, 2, 0)
    assert figures(text, 1) == (8, 0, 2, 6)
    checked_clean(text, (0, 1, 2))


def test_a_loop_of_two_joins_its_runs_before_its_last_iteration():
    """T = 2: no fold after the loop, but the lagged join takes a run of the loop at once
    (``fold_lagged``, tests/test_lean_lagged_folds.py): the barrier before the second run joins
    the join, the latest-run cell and the first run's cell, and the writer waits on the join and
    the latest-run cell. With a trip the writer clears both: the barrier holds one entry (not
    submitted), and the writer's 2 an outer iteration: 6, no dummy, the minimum; a fold would
    cost 2 entries and a dummy and the writer's 1: 9. No trip: 0 (the first outer iteration's
    barrier holds the first run alone), then 3 and a dummy in each of the other two: 6, 2
    dummies, all dead (the lagged chain's 0 + 1 + 2 + 2 + 2 + 2 less the unsubmitted one: 8, 4
    dummies)."""
    text = readers(2, 3)
    assert figures(text, 1) == (6, 0, 0, 6)
    assert figures(text, 0) == (6, 6, 2, 0)
    checked_clean(text, (0, 1))


def once(trips: int) -> str:
    """``readers`` with no outer loop: one run of the loop of ``trips`` runs of ``add``."""
    lines = readers(trips, 1).splitlines(keepends=True)
    at = lines.index("        for i in pl.range(1):\n")
    body = [line[4:] for line in lines[at + 1:] if line.startswith("            ")]
    return "".join(lines[:at] + body + [line for line in lines[at + 1:] if not line.startswith("            ")])


def test_a_loop_of_three_in_no_loop_keeps_the_lagged_join():
    """T = 3, the loop in no loop: its one run starts from an empty join. The lagged join's
    barrier before the second run holds one entry (not submitted), the one before the third two
    and a dummy: with no trip of the writer's loop (n = 0) 2 entries and a dummy, both dead,
    where the fold would cost 3 and a dummy (the three cells; the join empty). With a trip the
    writer waits on the join and the latest-run cell: 4 and a dummy, against 3 pairs needed (each
    run of add before the first writer); the fold too would cost 3 + 1."""
    text = once(3)
    assert "for i in" not in text and "        for k in pl.range(n):\n            a = self.acc" in text
    assert figures(text, 0) == (2, 2, 1, 0)
    assert figures(text, 1) == (4, 0, 1, 3)
    checked_clean(text, (0, 1, 2))
