"""Two loops of the same bounds (read only from scalar parameters) whose slices compute the same
offsets from their counters view the same regions, iteration by iteration: a lookup in the
second finds what the first wrote at the same counter value (runtime_order's
``repeated_regions``, keyed by the bounds and the offsets with the counter renamed; issue 24,
seed 41133). The figures are the emitted program's (tools/measure_edges.py: insertions,
redundant, dummies, minimum), computed by hand; the program also passes the hazard checker."""

from __future__ import annotations

from dsl_header import program
from test_lean_edges import checked_clean, insertions

T = "pl.Tensor[[8, 8], pl.FP32]"

PROGRAM = program(
    [f"fill(a: {T}, out: pl.InOut[{T}])", f"add(a: {T}, b: {T}, y: pl.InOut[{T}])"],
    f"x: {T}, y: pl.InOut[{T}], big: pl.InOut[pl.Tensor[[32, 8], pl.FP32]], n: pl.Scalar[pl.INT64]",
    """
    s = pl.tensor.slice(big, [8, 8], [8, 0])
    y = self.add(s, x, y)
    for i in pl.range(n):
        a = pl.tensor.slice(big, [8, 8], [(i % 4) * 8, 0])
        a = self.fill(x, a)
    for j in pl.range(n):
        b = pl.tensor.slice(big, [8, 8], [(j % 4) * 8, 0])
        b = self.fill(x, b)
    return y
""",
    returns=T,
)


def figures(n: int):
    f = insertions(PROGRAM, n)
    return f.insertions, f.redundant, f.dummies, f.minimum


def test_a_loop_finds_the_regions_an_earlier_loop_of_the_same_bounds_wrote():
    """add reads rows 8-15 of ``big``; each fill of the first loop (i < n) writes rows 8 (i % 4)
    with a write-after-read edge on add (on every run: n entries, each a covering pair of the
    order as inserted). Each fill of the second loop (j < n) writes rows 8 (j % 4), which the
    first loop's fill of i = j wrote after add: its lookup finds that entry, the runtime orders
    it after add, and its edge goes. n entries, the minimum; without the rule 2n, n of them
    redundant."""
    assert figures(0) == (0, 0, 0, 0)
    assert figures(2) == (2, 0, 0, 2)
    assert figures(3) == (3, 0, 0, 3)
    checked_clean(PROGRAM, (0, 1, 2, 5))
