"""A guard on an inner loop's counter tests an outer loop's lower bound beside it (issue 24, seed
36199): a derived edge implied where the inner counter is 0 and where the outer counter is at
least 2 (``RuntimeOrder.implied_from``) waits on a cell set to no task where either holds.
The lower bound was left out beside an exact value since the guard it made in seed 35013 cost
more than ``drop_edges_after_first_run``'s edge on the first run; that task's runs are chained,
where no guard is put now (``DropImpliedDependencies.runs_chained``). Figures
(tools/measure_edges.py) computed by hand; the hazard checker checks the program."""

from __future__ import annotations

from test_lean_edges import TILE, checked_clean, insertions
from test_lean_loop_joins import HEADER

# S writes y1; the copy-and-accumulate swap loop (carries y1, y0) in a loop of two runs, a
# writer of y0 after it that reads the loop's first result; a host read of y1 and a task that
# reads it after the loops where n == 0.
PROGRAM = "# options: analyze_auto_scopes_for_deps=True\n" + HEADER + f"""    @pl.function(type=pl.FunctionType.AIV)
    def scale(self, a: {TILE}, out: pl.Out[{TILE}], s: pl.Scalar[pl.INT64]) -> {TILE}:
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def fscale(self, a: {TILE}, out: pl.Out[{TILE}], s: pl.Scalar[pl.FP32]) -> {TILE}:
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x0: {TILE}, x1: {TILE}, y0: pl.InOut[{TILE}], y1: pl.Out[{TILE}],
             n: pl.Scalar[pl.INT64]) -> {TILE}:
        y1 = self.scale(x1, y1, -n)
        for i0 in pl.range(1, 3):
            for i2, (p3, q4) in pl.range(n, init_values=(y1, y0)):
                t5 = pl.create_tensor([16, 16], dtype=pl.FP32)
                t5 = self.copy(p3, t5)
                if i2 >= 1:
                    q4 = self.acc(t5, q4)
                o6, o7 = pl.yield_(q4, p3)
            y0 = self.add(o6, x0, y0)
        if n == 0:
            h8 = pl.tensor.read(y1, [4, 6])
            y1 = self.fscale(x0, y1, h8)
        return y0
"""


def test_a_guard_tests_the_outer_counters_lower_bound_beside_the_inner_counters_value():
    """The copy's edge on S is implied at i2 = 0 (the copy looks y1 up) and where i0 >= 2 (the
    copy waits for the writer of y0 of the first outer run, after the writer of y1 in it, after
    S); the copy's runs are not chained (the reads at i2 = 0 and 1 read different buffers). The
    first outer run (n >= 2): the copy at i2 = 1 waits for S (1; the copies at i2 >= 2 look up
    what the writer of the run before wrote, after that copy: the walk of i2 = 1 apart tells it,
    ``RuntimeOrder.peeled``, and the guard tests ``i2 >= 2`` too), the writer at i2 = 1 for the
    join (the read at i2 = 0: 1); the second: the copy at i2 = 0 for the writer of y0 (1; at
    i2 = 1 the copy reads y0, and its lookup finds that writer), the writer at i2 = 1 for the
    join (1). 4 for each n >= 2, none redundant (with the copies at i2 = 2 .. n - 1 of the first
    run waiting for S too, and the second run's copy at i2 = 1 for the writer of y0: n + 3, 5, 6
    and 7 for n = 2, 3, 4; with the guard ``i2 == 0`` alone the copies at i2 >= 1 of the second
    run wait for S too: 2 n + 2, 6, 8 and 10). n = 0: the task after the loops waits for the
    writer of y0 (1); n = 1: each writer of y0 for the latest copy (2), the copy of the second
    run for the first run's writer of y0 (1): 3."""
    figures = {n: insertions(PROGRAM, n).insertions for n in range(5)}
    assert figures == {0: 1, 1: 3, 2: 4, 3: 4, 4: 4}
    checked_clean(PROGRAM, (0, 1, 2, 3))


def test_the_guard_alone_inserts_the_edge_in_the_first_outer_iteration_only(monkeypatch):
    """tests/test_lean_guard_bounds.py's OUTER_FIRST_ITERATION without ``first_iteration_loops``
    (which sets the guard's cell to a cell that holds add's TaskId in the first outer iteration
    only): copy's edge on add is implied at j = 2 and where the outer i >= 1, and the guard tests
    both (``j == 2 or i >= 1``): the edge at (i = 0, j = 0) and (0, 1) alone, 2 insertions for
    each n >= 1, none redundant (with the guard on j alone: 2 n, 2 (n - 1) redundant)."""
    from nanopass.passes.drop_implied_dependencies import DropImpliedDependencies
    from test_lean_guard_bounds import OUTER_FIRST_ITERATION, figures

    monkeypatch.setattr(DropImpliedDependencies, "first_iteration_loops", lambda self, program: {})
    got = [figures(OUTER_FIRST_ITERATION, n) for n in (0, 1, 2, 3)]
    assert got == [(0, 0, 0, 0), (2, 0, 2, 0), (2, 0, 2, 0), (2, 0, 2, 0)]
    checked_clean(OUTER_FIRST_ITERATION, trips=(0, 1, 2, 3))
