"""Lean edges in loops whose iterations are known before they run (issue 24): a ``while`` whose
counter, started from a constant and stepped by a constant, alone decides its condition. The
figures are the emitted program's (tools/measure_edges.py), computed by hand in each test; every
program also passes the hazard checker."""

from __future__ import annotations

from test_lean_edges import JOIN_WAITERS, OFF, checked_clean, insertions

# copy's runs read w into tensors of their own in a while of three iterations (0, 1, 2); a writer
# of w after it
READERS_IN_A_WHILE_OF_THREE = """        for (i,) in pl.while_(init_values=(0,)):
            pl.cond(i < 3)
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.copy(w, t)
            (j,) = pl.yield_(i + 1)
        w = self.acc(x, w)"""


def test_a_join_of_the_runs_of_a_counted_while_becomes_a_cell_per_iteration():
    """split_joins_by_iteration on a ``while``: the writer of w after the loop waits for each of
    the three runs of copy, which nothing orders among themselves (each writes a tensor of its
    own): the minimum is three entries. The join chains them through a barrier per run after
    the first (two entries each: 2 + 2, and the writer's one: five, two dummies); with the join's
    latest run apart (drop_latest_runs_from_joins) one barrier of two entries and the writer's
    two: four and a dummy. A cell per iteration (set under ``if i == 0`` / ``i == 1`` / else)
    holds each run, and the writer waits on the three cells: three entries, no dummy."""
    text = JOIN_WAITERS.replace("BODY", READERS_IN_A_WHILE_OF_THREE)
    before, after = insertions(text, 0, OFF), insertions(text, 0)
    assert (before.insertions, before.minimum, before.dummies) == (5, 3, 2)
    assert (after.insertions, after.redundant, after.minimum, after.dummies) == (3, 0, 3, 0)
    checked_clean(text, trips=(0,))


def test_a_while_its_counter_does_not_decide_keeps_its_join():
    """The same loop ending on ``i < n``: its iterations are not known before it runs, so no
    cell per iteration (n = 3: the join's barrier of two entries and the writer's two entries,
    one dummy)."""
    text = JOIN_WAITERS.replace("BODY", READERS_IN_A_WHILE_OF_THREE.replace("i < 3", "i < n"))
    after = insertions(text, 3)
    assert (after.insertions, after.minimum, after.dummies) == (4, 3, 1)
    checked_clean(text, trips=(0, 1, 3))
