"""A latest-run cell cleared after a task that waits on the run the cell holds through its own
TaskId, not the cell (issue 24; ``lean.waiters_on_held_runs``, used by
``clear_cells_after_waiters``): figures (tools/measure_edges.py) computed by hand, orders checked
by the hazard checker."""

from __future__ import annotations

from test_lean_edges import OFF, chain_program, checked_clean, insertions

# step reads y; a writer of y after it waits for it (write after read): the acc in the if on
# step's TaskId (same iteration), the next iteration's first acc and the last acc on the cell of
# step's latest run. Each of those writes y after the if's acc (the runtime orders writers of y).
WRITER_IN_A_GUARD_ON_THE_HELD_RUN = """        for i in pl.range(n):
            y = self.acc(x, y)
            t = self.step(y, t)
            if i % 2 == 1:
                y = self.acc(x, y)
        y = self.acc(x, y)"""


def test_a_cell_is_cleared_after_a_guarded_task_that_waits_on_its_run_directly():
    """By hand, tasks A_i, S_i (and B_i for odd i), then F; edges S_{i-1} -> A_i (cell),
    S_i -> B_i (TaskId), S_{n-1} -> F (cell). n = 2: A0 S0 A1 S1 B1 F: S0 -> A1, S1 -> B1 needed,
    S1 -> F implied by S1 -> B1 -> F: 3 insertions, redundant 1, minimum 2. n = 3: ... A2 S2 F:
    S1 -> A2 implied through B1 (redundant 1), S2 -> F needed: 4, minimum 3. n = 4: 6 insertions,
    S1 -> A2 and S3 -> F redundant, minimum 4. With the cell cleared after B_i, every redundant
    one goes: insertions = minimum."""
    text = chain_program(WRITER_IN_A_GUARD_ON_THE_HELD_RUN)
    figures = lambda options: [(f.insertions, f.redundant, f.minimum) for f in
                               (insertions(text, n, options) for n in (1, 2, 3, 4))]
    assert figures(OFF) == [(1, 0, 1), (3, 1, 2), (4, 1, 3), (6, 2, 4)]
    assert figures(None) == [(1, 0, 1), (2, 0, 2), (3, 0, 3), (4, 0, 4)]
    checked_clean(text, trips=(0, 1, 2, 3, 4))

