"""A loop of constant bounds that swaps its carries, of more iterations than ``runtime_order``
walks one by one (``UNROLL``, with the loops around it walked so), leaves by the exit of the
trips' parity its bounds say (``walk_by_parity``): each carry then names the tensor it holds
after that many trips, whose facts it shares (seed 48026 of measure_generated: three
iterations of a ``pl.parallel`` loop around a ``pl.range(3)`` swap loop, 12 insertions over;
49170). Figures (tools/measure_edges.py) by hand, and the hazard checker."""

from __future__ import annotations

from dsl_header import load_store_kernel, program
from test_lean_edges import checked_clean, insertions

# acc writes q in each of 9 iterations; the carries swap, so after an odd number of trips o1
# is z and o2 is y. add reads o2 and writes y; acc after it writes o2.
T = "pl.Tensor[[8, 8], pl.FP32]"
ODD = program(
    [load_store_kernel(f"acc(a: {T}, acc: pl.InOut[{T}])", "acc"),
     load_store_kernel(f"add(a: {T}, b: {T}, out: pl.InOut[{T}])", "out")],
    f"x: {T}, y: pl.InOut[{T}], z: pl.InOut[{T}], n: pl.Scalar[pl.INT64]",
    """
    for i, (p, q) in pl.range(9, init_values=(y, z)):
        q = self.acc(x, q)
        o1, o2 = pl.yield_(q, p)
    y = self.add(o2, x, y)
    o2 = self.acc(x, o2)
    return y
""", returns=T, name="Swap")

EVEN = ODD.replace("pl.range(9,", "pl.range(10,")


def figures(text: str) -> tuple:
    found = insertions(text, 1)
    return found.insertions, found.redundant, found.minimum, found.dummies


def test_after_an_odd_number_of_trips_the_carry_is_the_other_tensor():
    """By hand: after 9 trips o2 is y, which add wrote (InOut): acc's lookup of o2 finds add,
    so its write-after-read edge on add's read of o2 is the runtime's own: (0, 0, 0, 0). Before
    the rule the walk met every trip count after the loop and knew neither carry: the edge
    stayed, redundant: (1, 1, 0, 0)."""
    assert figures(ODD) == (0, 0, 0, 0)
    checked_clean(ODD, trips=(1,))


def test_after_an_even_number_the_carry_is_its_init():
    """By hand: after 10 trips o2 is z, which add only read; acc's lookup of z finds the loop's
    last acc, before add: the edge stays, needed: (1, 0, 1, 0)."""
    assert figures(EVEN) == (1, 0, 1, 0)
    checked_clean(EVEN, trips=(1,))
