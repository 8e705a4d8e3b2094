"""Edges implied on some paths only (issue 24): ``clear_edges_where_implied`` routes a compiler
edge through a cell cleared after the task that implies it, on a small program whose figures
(tools/measure_edges.py) are computed by hand, and checked by the hazard checker."""

from __future__ import annotations

from test_lean_edges import OFF, chain_program, checked_clean, insertions

# step reads y; the acc in the if and the last acc write y after that read (a write-after-read
# edge step -> acc each); the last acc's lookup of y finds the first acc where the if ran it
WRITER_IN_ONE_BRANCH = """        t = self.step(y, t)
        if n >= 1:
            y = self.acc(x, y)
        y = self.acc(x, y)"""


def test_an_edge_a_task_in_one_branch_implies_goes_through_a_cell_cleared_after_it():
    """By hand: n = 0, tasks step, acc: one edge step -> acc, needed (minimum 1). n = 1, tasks
    step, acc, acc: edges step -> acc (the if's) and step -> acc (the last), the last implied by
    the if's acc, which the last one looks up (redundant 1, minimum 1). The last acc's edge is
    kept by drop_implied_dependencies (n = 0 needs it); through a cell cleared after the if's acc
    it costs nothing for n = 1: 1 insertion for either n."""
    text = chain_program(WRITER_IN_ONE_BRANCH)
    before = [insertions(text, n, OFF) for n in (0, 1)]
    after = [insertions(text, n) for n in (0, 1)]
    assert [(f.insertions, f.redundant, f.minimum, f.dummies) for f in before] == [(1, 0, 1, 0), (2, 1, 1, 0)]
    assert [(f.insertions, f.redundant, f.minimum, f.dummies) for f in after] == [(1, 0, 1, 0), (1, 0, 1, 0)]
    checked_clean(text, trips=(0, 1))


# as above, but the acc in the if writes t, not y: the last acc is not ordered after it
WRITER_OF_ANOTHER_TENSOR = """        t = self.step(y, t)
        if n >= 1:
            t = self.acc(x, t)
        y = self.acc(x, y)"""


def test_an_edge_no_task_between_implies_stays():
    """By hand: the last acc's edge step -> acc is needed for every n (the if's acc writes t,
    which the last one does not look up): 1 insertion, minimum 1, before and after."""
    text = chain_program(WRITER_OF_ANOTHER_TENSOR)
    for n in (0, 1):
        for options in (OFF, None):
            f = insertions(text, n, options)
            assert (f.insertions, f.redundant, f.minimum, f.dummies) == (1, 0, 1, 0)
    checked_clean(text, trips=(0, 1))


# the host write of y in the inner loop waits (a host fence) for step's latest read of y; acc,
# after the inner loop, writes y after step's reads (a write-after-read edge on step)
FENCE_IN_A_LOOP_AFTER_A_WRITER = """        for i in pl.range(2):
            for j in pl.range(2):
                pl.tensor.write(y, [0, 0], 1.0)
                t = self.step(y, t)
            y = self.acc(x, y)"""


def test_a_fence_edge_a_task_later_in_an_outer_loop_implies_goes_through_a_cell_cleared_after_it():
    """By hand: 4 steps, 2 accs. The fence before the host write waits for step's latest run:
    none at (i, j) = (0, 0), else one insertion and one dummy each, 3; each acc waits for the
    last step, 2 insertions (5, dummies 3). At (1, 0) the fence's lookup of y finds acc, which
    waited for that step (redundant 1, minimum 4). After: the fence's cell is cleared after acc,
    so at (1, 0) it is invalid and the fence is not submitted: 4 insertions, 2 dummies."""
    text = chain_program(FENCE_IN_A_LOOP_AFTER_A_WRITER)
    before, after = insertions(text, 0, OFF), insertions(text, 0)
    assert (before.insertions, before.redundant, before.minimum, before.dummies) == (5, 1, 4, 3)
    assert (after.insertions, after.redundant, after.minimum, after.dummies) == (4, 0, 4, 2)
    checked_clean(text, trips=(0,))
