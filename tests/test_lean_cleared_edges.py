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
