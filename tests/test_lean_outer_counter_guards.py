"""An edge implied in every run of its innermost loop where the counter of an outer loop has
some values (drop_implied_dependencies' guard on an outer counter, where the task's runs are not
chained: the edge is on each of them either way; issue 24, seed 45029). The figures are the
emitted program's (tools/measure_edges.py: insertions, redundant, dummies, minimum), computed by
hand; the program also passes the hazard checker."""

from __future__ import annotations

from dsl_header import program
from test_lean_edges import checked_clean, insertions

T = "pl.Tensor[[8, 8], pl.FP32]"

PROGRAM = program(
    [f"fill(a: {T}, out: pl.InOut[{T}])", f"add(a: {T}, y: pl.InOut[{T}])"],
    f"x: {T}, y: pl.InOut[{T}], big: pl.InOut[pl.Tensor[[32, 8], pl.FP32]], n: pl.Scalar[pl.INT64]",
    """
    for j in pl.range(3):
        for i in pl.range(3):
            s = pl.tensor.slice(big, [8, 8], [(i % 4) * 8, 0])
            s = self.fill(x, s)
        if j % 2 == 0:
            r = pl.tensor.slice(big, [8, 8], [(j % 4) * 8, 0])
            y = self.add(r, y)
    return y
""",
    returns=T,
)


def figures(n: int):
    f = insertions(PROGRAM, n)
    return f.insertions, f.redundant, f.dummies, f.minimum


def test_an_edge_implied_where_an_outer_counter_says_goes_there():
    """fill(j, i) writes rows 8i; add(j) (j = 0 and 2) reads rows 8j. The writers of the later
    outer iterations wait for the latest add (a latest-run cell): in j = 0 none has run (the
    cell holds none); in j = 1 each fill(1, i) waits on add(0), 3 entries; in j = 2 each
    fill(2, i) looks up rows 8i and finds fill(1, i), which waited on add(0), which has not
    run since: the edge is implied there, and a guard on ``j`` leaves it out (the fills' runs
    write three regions: they are not chained, and the edge is on each run either way). add(2)
    looks up rows 16 and finds fill(2, 2). 3 entries, the minimum; without the guard 6, 3 of
    them redundant."""
    assert figures(1) == (3, 0, 0, 3)
    checked_clean(PROGRAM, (0, 1))
