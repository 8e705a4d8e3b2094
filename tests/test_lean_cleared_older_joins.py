"""A lagged join (drop_latest_runs_from_joins) cleared after a task that is no waiter of it: a task
whose every run is ordered after every run of the joined task so far, and which every later
waiter of the join waits for (issue 24, seed 38101: an outer loop's writer after an inner loop
whose task's runs the join holds). The later waiters wait for the runs since the clear through
the join and for the earlier ones through that task. The figures are the emitted program's
(tools/measure_edges.py), computed by hand in each test; the program also passes the hazard
checker."""

from __future__ import annotations

from dsl_header import program
from test_lean_edges import checked_clean, insertions

T = "pl.Tensor[[8, 8], pl.FP32]"

PROGRAM = program(
    [f"copy(a: {T}, out: pl.Out[{T}])", f"acc(a: {T}, acc: pl.InOut[{T}])", f"add(a: {T}, y: pl.InOut[{T}])"],
    f"y: pl.InOut[{T}], big: pl.InOut[pl.Tensor[[32, 8], pl.FP32]], n: pl.Scalar[pl.INT64]",
    f"""
        for i in pl.range(n):
            s = pl.tensor.slice(big, [8, 8], [8, 0])
            m: {T} = pl.create_tensor([8, 8], dtype=pl.FP32, manual_dep=True)
            for j, (p, q) in pl.range(2, init_values=(s, m)):
                t: {T} = pl.create_tensor([8, 8], dtype=pl.FP32)
                t = self.copy(p, t)
                q = self.acc(t, q)
                o1, o2 = pl.yield_(q, p)
            y = self.add(o1, y)
        return y
""",
    returns=T, auto_scope=False,
)


def figures(n: int):
    f = insertions(PROGRAM, n)
    return f.insertions, f.redundant, f.dummies, f.minimum


def test_the_join_of_the_inner_loop_is_cleared_after_the_outer_loops_writer():
    """The inner swap loop reads ``s`` in iteration j = 0 (copy) and writes it in j = 1 (acc);
    in between the carries hold the manual_dep ``m``, so the runtime orders copy(j=0) before
    acc(j=1) by no lookup: acc waits on copy's join (lagged: acc reads copy's latest output
    ``t``, so the runtime orders it after copy's latest run), and on add's previous run (add
    read ``s``; a latest-run cell). add reads ``s`` after acc wrote it: every run of add is
    ordered after every run of copy so far, and every later acc waits for add: the join is
    cleared after add.
    With the rule, outer iteration 0: acc(j=0) 0 entries, acc(j=1) the join (copy(j=0)) 1;
    each later outer iteration: acc(j=0) add 1 (the join is empty), acc(j=1) copy(j=0) and add
    2: 1 + 3 (n - 1) entries, no dummy, the minimum (copy(j=0) -> acc(j=1) each outer
    iteration, add -> both accs of the next).
    Without it, each later outer iteration starts with the join of the two runs of the one
    before: a barrier of 2 entries before j = 0 (acc: it and add, 2) and one of 2 (it and
    copy(j=0)) before j = 1 (acc: 2): 8 entries and 2 dummies an outer iteration after the first:
    n = 2: 9, n = 3: 17."""
    assert figures(1) == (1, 0, 0, 1)
    assert figures(2) == (4, 0, 0, 4)
    assert figures(3) == (7, 0, 0, 7)
    checked_clean(PROGRAM, (0, 1, 2, 3))
