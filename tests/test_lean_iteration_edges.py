"""A task's dependency on the cell of one iteration of a join (split_joins_by_iteration,
drop_latest_runs_from_joins) where the task is ordered after the run of another task that, in
that iteration, waits on the run the cell holds (drop_cells_implied_through_edges; issue 24,
seeds 45065 and 45158). The figures are the emitted program's (tools/measure_edges.py: insertions,
redundant, dummies, minimum), computed by hand in each test; each program also passes the hazard
checker."""

from __future__ import annotations

from dsl_header import program
from test_lean_edges import checked_clean, insertions

T = "pl.Tensor[[8, 8], pl.FP32]"

KERNELS = [f"copy(a: {T}, out: pl.Out[{T}])", f"acc(a: {T}, acc: pl.InOut[{T}])",
           f"add(a: {T}, b: {T}, out: pl.InOut[{T}])"]

GUARDED_WRITER = program(
    KERNELS,
    f"x: {T}, y: pl.InOut[{T}], n: pl.Scalar[pl.INT64]",
    f"""
    for j in pl.parallel(1, 4):
        for i in pl.parallel(3):
            t: {T} = pl.create_tensor([8, 8], dtype=pl.FP32)
            t = self.copy(y, t)
            if i != 1:
                y = self.acc(x, y)
        if j > 0:
            for k in pl.range(2):
                w = self.acc(x, y)
    return y
""",
    returns=T,
)

PAIRED_JOINS = program(
    KERNELS,
    f"x: {T}, y: pl.InOut[{T}], big: pl.InOut[pl.Tensor[[32, 8], pl.FP32]], n: pl.Scalar[pl.INT64]",
    f"""
    for i in pl.parallel(2):
        a: {T} = pl.create_tensor([8, 8], dtype=pl.FP32)
        a = self.copy(x, a)
        big = pl.assemble(big, a, [0, 0])
        s = pl.tensor.slice(big, [8, 8], [0, 0])
        y = self.add(s, x, y)
    r = pl.tensor.slice(big, [8, 8], [0, 0])
    y = self.add(r, x, y)
    return y
""",
    returns=T, options='analyze_auto_scopes_for_deps=True',
)


def figures(text: str, n: int):
    f = insertions(text, n)
    return f.insertions, f.redundant, f.dummies, f.minimum


def test_cells_of_iterations_whose_guarded_writer_the_waiter_follows_go():
    """Each outer iteration (three): the inner ``pl.parallel(3)`` runs copy (a reader of ``y``)
    in each iteration and acc (a writer of ``y``) in iterations 0 and 2, each acc with an edge
    on its iteration's copy (2 entries: the iterations of a ``pl.parallel`` loop are
    independent, so no other). The first run of the waiter ``w`` (a writer of ``y``) must follow
    every copy of the inner loop: it looks up ``y`` and finds acc(i=2), which waited on
    copy(i=2) and looked up acc(i=0), which waited on copy(i=0): only copy(i=1) needs its
    entry (the cell of iteration 1); its later run looks up the first. 3 entries an outer
    iteration, 9 in all, the minimum. Without the rule the first ``w`` waits on the cells of
    the three iterations: 5 an outer iteration, 15, 6 of them redundant."""
    assert figures(GUARDED_WRITER, 1) == (9, 0, 0, 9)
    checked_clean(GUARDED_WRITER, (0, 1))


def test_the_join_of_a_task_each_run_of_another_waits_on_goes_with_its_cells():
    """A manual scope (the option): each of the two independent iterations runs copy (writes
    ``big[0:8]``) and add (reads it: an edge on that iteration's copy; writes ``y``), 2
    entries. The last add reads ``big[0:8]`` and writes ``y``: it must follow both copies and
    both adds, whose runs the compiler joins a cell per iteration. Each add of the loop waited
    on its iteration's copy: the cells of the adds cover the copies, 2 entries; 4 in all, the
    minimum. Without the rule it waits on the four cells: 6, 2 redundant."""
    assert figures(PAIRED_JOINS, 1) == (4, 0, 0, 4)
    checked_clean(PAIRED_JOINS, (0, 1))
