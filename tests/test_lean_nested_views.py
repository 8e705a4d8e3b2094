"""A write to a tensor reaches the lookups of a covering view of a covering view of it (a
reshape of a reshape: runtime_order's ``publish``; issue 24, seed 82). The figures are the
emitted program's (tools/measure_edges.py: insertions, redundant, dummies, minimum), computed by
hand; the program also passes the hazard checker."""

from __future__ import annotations

from dsl_header import program
from test_lean_edges import checked_clean, insertions

T = "pl.Tensor[[8, 8], pl.FP32]"

PROGRAM = program(
    [f"acc(a: {T}, y: pl.InOut[{T}])", f"add(a: {T}, b: {T}, y: pl.InOut[{T}])"],
    f"x: {T}, y: pl.InOut[{T}], z: pl.InOut[{T}], n: pl.Scalar[pl.INT64]",
    """
    f = pl.tensor.reshape(y, [64])
    v = pl.tensor.reshape(f, [8, 8])
    v = self.acc(x, v)
    y = self.add(z, x, y)
    z = self.acc(v, z)
    return y
""",
    returns=T,
)


def test_a_write_of_a_tensor_orders_a_lookup_of_a_reshape_of_its_reshape():
    """acc(x, v) writes ``v``, all of ``y`` through two reshapes; add reads ``z`` and writes
    ``y`` (the runtime orders it after the first acc); the second acc writes ``z`` after add
    read it, and looks up ``v``, whose region is all of ``y``: it finds add's entry, so the
    runtime orders it after add, and the compiler's write-after-read edge goes. 0 entries, the
    minimum; without the rule 1, redundant."""
    f = insertions(PROGRAM, 1)
    assert (f.insertions, f.redundant, f.dummies, f.minimum) == (0, 0, 0, 0)
    checked_clean(PROGRAM, (0, 1))
