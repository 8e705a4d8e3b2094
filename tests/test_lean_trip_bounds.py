"""A loop of unknown trips, ``for i in pl.range(n)``, exits by no trip (``n <= 0``) or after one or
more (``n >= 1``): the walk of the rest of its block knows which (``loop_facts.trip_bounds``),
so that an ``if`` on ``n`` after it takes one branch on each exit, and a compiler edge the
loop's runs imply in that branch goes (issue 24, seed 36058). Figures (tools/measure_edges.py)
computed by hand; the hazard checker checks each program on its trip counts."""

from __future__ import annotations

from dsl_header import header, orch
from test_lean_edges import checked_clean, insertions

T8 = "pl.Tensor[[8, 8], pl.FP32]"


def program(condition: str) -> str:
    """``read`` reads rows 16-23 of ``big`` once; a loop of ``n`` iterations writes rows 0-7,
    8-15 and 16-23 (InOut, one run each per iteration); then, where ``condition`` holds, a loop
    writes the same three regions again. ``order_write_after_read`` orders every writer of
    ``big`` after ``read``: an edge on its TaskId."""
    return header([f"read(x: {T8}, y: pl.InOut[{T8}])", f"write(x: {T8}, y: pl.InOut[{T8}])"]) + orch(
        f"x: {T8}, big: pl.InOut[pl.Tensor[[24, 8], pl.FP32]], y: pl.InOut[{T8}], n: pl.Scalar[pl.INT64]",
        f"""
        s = pl.tensor.slice(big, [8, 8], [16, 0])
        y = self.read(s, y)
        for i in pl.range(n):
            for j in pl.range(3):
                v = pl.tensor.slice(big, [8, 8], [j * 8, 0])
                v = self.write(x, v)
        if {condition}:
            for k in pl.range(3):
                w = pl.tensor.slice(big, [8, 8], [k * 8, 0])
                w = self.write(x, w)
        return y
""",
        returns=T8,
    )


RAN = program("n >= 1 and n < 3")  # (the branch runs only where the loop ran)
DID_NOT_RUN = program("n < 1")  # (the branch runs only where the loop did not)


def figures(text: str, n: int) -> tuple:
    got = insertions(text, n)
    return got.insertions, got.redundant, got.minimum, got.dummies


def test_an_edge_implied_on_every_exit_that_reaches_the_branch_goes():
    """By hand, RAN: for n >= 1 the loop's first iteration writes the three regions, each run
    waiting for read (3 insertions, the minimum: no run is ordered after another); its later
    ones find the run of the iteration before at their rows (none). The branch runs for n = 1
    and 2: each of its 3 runs looks up the rows the loop's last run at them wrote, ordered
    after read. Without the rule the walk of the branch from the loop's no-trip exit (where
    nothing wrote the rows) keeps their 3 edges, redundant: 6 insertions, 3 redundant. With it
    the no-trip exit (n <= 0) does not take the branch: 3 insertions for n >= 1, none for 0."""
    for n in range(4):
        assert figures(RAN, n) == (3 * min(n, 1), 0, 3 * min(n, 1), 0)
    checked_clean(RAN, trips=(0, 1, 2, 3))


def test_an_edge_in_a_branch_only_the_no_trip_exit_takes_stays():
    """By hand, DID_NOT_RUN: for n = 0 only the branch writes, each of its 3 runs waiting for
    read (3 needed); for n >= 1 the loop's first iteration inserts 3 and the branch does not
    run. The walk from the no-trip exit takes the branch, where nothing implies the edges."""
    for n in range(4):
        assert figures(DID_NOT_RUN, n) == (3, 0, 3, 0)
    checked_clean(DID_NOT_RUN, trips=(0, 1, 2))
