"""A host fence's edge implied in the runs where the trips' parity of a swap loop before it has
given values waits on a cell set before it (issue 24; ``drop_implied_dependencies`` with
``RuntimeOrder.implied_where`` of a fence): figures (tools/measure_edges.py) computed by hand,
orders checked by the hazard checker."""

from __future__ import annotations

from test_lean_edges import OFF, chain_program, checked_clean, insertions

# the loop swaps y and t: after it o1 is y for an even number of trips, t for an odd one. step
# reads y and writes t; the host write of o1 waits for step through a fence (write after read
# where o1 is y); where o1 is t the fence's lookup of t finds step (the runtime's order).
HOST_WRITE_OF_A_SWAPPED_CARRY = """        for i, (p, q) in pl.range(n, init_values=(y, t)):
            q = self.acc(x, q)
            o1, o2 = pl.yield_(q, p)
        t = self.step(y, t)
        pl.tensor.write(o1, [0, 0], 1.0)"""


def test_a_fence_edge_implied_after_an_odd_number_of_swaps_is_guarded_by_the_parity():
    """By hand, n accs, step, the fence and the host write. Even n (0 too): o1 is y, the fence's
    edge step -> fence is needed: 1 insertion, 1 dummy, minimum 1. Odd n: o1 is t, the fence's
    lookup of t finds step: the edge is redundant (minimum 0); with the guard on the parity the
    fence has no edge there and is not submitted: 0 insertions, 0 dummies."""
    text = chain_program(HOST_WRITE_OF_A_SWAPPED_CARRY)
    figures = lambda options: [(f.insertions, f.redundant, f.minimum, f.dummies) for f in
                               (insertions(text, n, options) for n in range(5))]
    even, odd_before, odd_after = (1, 0, 1, 1), (1, 1, 0, 1), (0, 0, 0, 0)
    assert figures(OFF) == [even, odd_before, even, odd_before, even]
    assert figures(None) == [even, odd_after, even, odd_after, even]
    checked_clean(text, trips=(0, 1, 2, 3))
