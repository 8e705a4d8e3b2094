"""A guard on the inner counter is not put on the edge of a task whose runs are chained, in a
loop in a loop, on a task outside both (issue 24, seed 35013): ``drop_edges_after_first_run``
inserts that edge on the task's first run after the source only, where the guard inserts it in
every run of the outer loop. ``drop_implied_dependencies`` knew whether the task's runs are
chained only where an edge names the task (``runtime_order`` tracks those alone): it now asks
an analysis that tracks the tasks in two loops or more with a compiler edge. Figures
(tools/measure_edges.py) computed by hand; the hazard checker checks each program."""

from __future__ import annotations

from dsl_header import orch
from test_lean_edges import OFF, TILE, checked_clean, insertions
from test_lean_loop_joins import HEADER

# S reads z before the loops; the copy-and-accumulate swap loop (carries y, z) in a loop of
# ``{trips}`` runs: its writer under ``if i >= 1`` writes y at i = 1 and z at i = 2.
PROGRAM = HEADER + orch(
    f"x: {TILE}, y: pl.InOut[{TILE}], z: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
    """
        r = pl.create_tensor([16, 16], dtype=pl.FP32)
        r = self.copy(z, r)
        for k in pl.range({trips}):
            for i, (p, q) in pl.range(3, init_values=(y, z)):
                t = pl.create_tensor([16, 16], dtype=pl.FP32)
                t = self.copy(p, t)
                if i >= 1:
                    q = self.acc(t, q)
                o, e = pl.yield_(q, p)
        return y
""",
    returns=TILE,
)


def test_an_edge_of_a_chained_task_on_a_task_outside_its_loops_is_inserted_on_its_first_run_alone():
    """Each run of the outer loop: reads r0 (of y), r1 (of z), r2 (of y), the writer w1 (of y)
    after r0 (the join, 1 entry; r1 by the runtime: it reads r1's output) and w2 (of z) after
    S and r1 (implied: r1 -> w1 -> r2 -> w2, the last two by the runtime; S -> w1 the first
    time). The writer's runs are chained (w2 after w1 as above; w1 of the next run reads the
    output of the next r1, which reads the z w2 wrote), so the edge on S is inserted on the
    first run of the writer alone: 1 entry, where the guard
    ``if i == 2`` put it on w1 of every outer run (1 a run). 3 runs: w1 after r0 each (3) and
    after S once (1): 4, the minimum (with the guard: 6). n runs: n + 1 (n >= 1)."""
    three = PROGRAM.replace("{trips}", "3")
    for n in (0, 2):
        after = insertions(three, n)
        assert (after.insertions, after.redundant, after.dummies, after.minimum) == (4, 0, 0, 4)
    assert (insertions(three, 1, OFF).insertions, insertions(three, 1, OFF).dummies) == (28, 8)
    checked_clean(three, (0, 1))
    runs = PROGRAM.replace("{trips}", "n")
    for n in (1, 2, 3):
        after = insertions(runs, n)
        assert (after.insertions, after.redundant, after.dummies, after.minimum) == (n + 1, 0, 0, n + 1)
    checked_clean(runs, (0, 1, 2, 3))
