"""Edges implied in some runs only of a loop that swaps or rotates its carries (issue 24):
``drop_implied_dependencies`` inserts such an edge through a cell set before the task to no
task where every walk of ``runtime_order`` finds it implied (``RuntimeOrder.implied_where``):
at given values of the counter of the innermost loop around the task, or after a loop of a
given trips' parity (``walk_by_parity``), else to the TaskId. Figures (tools/measure_edges.py)
by hand, before and after, and the hazard checker on each program."""

from __future__ import annotations

import nanopass.passes.runtime_order as runtime_order

from test_lean_edges import OFF, chain_program, checked_clean, insertions

# step reads p and writes q; acc writes y; the yield swaps the carries, so p is y in the even
# iterations and t in the odd ones
SWAP_LOOP = """        for i, (p, q) in pl.range(4, init_values=(y, t)):
            q = self.step(p, q)
            y = self.acc(x, y)
            p2, q2 = pl.yield_(q, p)"""


def figures(text: str, n: int = 0, options=None) -> tuple:
    found = insertions(text, n, options)
    return found.insertions, found.redundant, found.minimum, found.dummies


def test_an_edge_of_a_swap_loop_is_inserted_in_the_iterations_that_need_it():
    """acc's write-after-read edge on step (step read ``p``, acc writes ``y``) is needed where
    ``p`` is ``y`` (i = 0, 2) and the runtime's where ``q`` is ``y`` (i = 1, 3: step wrote ``y``,
    acc's lookup of ``y`` finds it): one program point, needed in half of its runs (seeds 25066,
    24105 of measure_generated). Figures by hand: 8 tasks; 4 derived edges step -> acc, 2
    redundant (runtime); 3 cell edges of step on the step before (it wrote the buffer this
    step's ``p`` is: the runtime's, but at i = 2, where acc wrote ``y`` after it: implied), all
    redundant; minimum 2. After: the cell edges go, acc's edge is inserted where ``i`` is 0 or
    2 only: 2 insertions, none redundant. Without the guard the 4 derived edges stay (4, 2)."""
    text = chain_program(SWAP_LOOP)
    assert figures(text, 0, OFF) == (7, 5, 2, 0)
    assert figures(text) == (2, 0, 2, 0)
    checked_clean(text, trips=(0,))


# the first step reads p (always y) and writes q, which is y in the first iteration and t in
# the later ones; the second step reads t and writes q; acc writes y
FIRST_ITERATION_ALIAS = """        for i, (p, q) in pl.range(n, init_values=(y, y)):
            q = self.step(p, q)
            q = self.step(t, q)
            y = self.acc(x, y)
            p2, q2 = pl.yield_(p, t)"""


def test_an_edge_implied_in_the_first_iteration_of_a_loop_of_unknown_trips_is_left_out_there():
    """acc's edge on the first step (which read ``y``) is implied at i = 0, where the second
    step wrote ``q`` = ``y`` after the first step wrote it, and needed at i >= 1 (``q`` is ``t``):
    the walk of the first iteration knows ``i`` is 0, the later ones that it is at least 1. By
    hand, per trip count n: n derived edges of acc, the first implied; n - 1 cell edges of the
    first step on the second step before it (not this rule's: at i = 1 implied through acc at
    i = 0, whose lookup of ``y`` found the second step, which the first step's lookup of ``y``
    finds; at i >= 2 the runtime's, its lookup of ``t``: they go, ``runtime_order`` walking the
    second iteration apart from the third on, test_lean_aliased_carries.py). After: n - 1 edges
    of acc (needed): n = 1: none; n = 2: 1 insertion, none redundant, minimum 1; n = 3: 2, 0, 2.
    Without the guard one more insertion, redundant, for every n >= 1."""
    text = chain_program(FIRST_ITERATION_ALIAS)
    assert [figures(text, n) for n in (0, 1, 2, 3)] == [(0, 0, 0, 0), (0, 0, 0, 0), (1, 0, 1, 0), (2, 0, 2, 0)]
    checked_clean(text, trips=(0, 1, 2, 3))


# a swap loop of n trips (step reads p, writes q); after it q2 is t after an even number of
# trips (none included) and y after an odd one; acc reads q2 and writes y; a step writes q2
AFTER_A_SWAP_LOOP = """        for i, (p, q) in pl.range(n, init_values=(y, t)):
            q = self.step(p, q)
            p2, q2 = pl.yield_(q, p)
        y = self.acc(q2, y)
        q2 = self.step(x, q2)"""


def test_an_edge_after_a_swap_loop_is_inserted_after_the_trips_of_the_parity_that_needs_it():
    """The last step's derived write-after-read edge on acc (acc read ``q2``) is needed where
    ``q2`` is ``t`` (n even: acc wrote ``y``) and the runtime's where it is ``y`` (n odd: the
    step's lookup of ``y`` finds acc): after the loop the walk splits the trips' parity (seeds
    25165, 25109, 24045 of measure_generated). acc's cell edge on the loop's last step (which
    read ``p``) is needed for odd n (that step read ``y`` and wrote ``t``), the runtime's for
    even n >= 2 (it wrote ``y``): a cell's edge, not this rule's. By hand, after, per n = 0..4:
    n = 0 the derived edge (needed): (1, 0, 1, 0); n odd the cell edge (needed): (1, 0, 1, 0);
    n = 2, 4 both, the cell edge redundant: (2, 1, 1, 0). Without the guard the derived edge
    stays for odd n too, redundant: (2, 1, 1, 0)."""
    text = chain_program(AFTER_A_SWAP_LOOP)
    assert [figures(text, n) for n in range(5)] == [(1, 0, 1, 0), (1, 0, 1, 0), (2, 1, 1, 0), (1, 0, 1, 0),
                                                    (2, 1, 1, 0)]
    checked_clean(text, trips=(0, 1, 2, 3, 4))


def test_the_guards_are_the_rule_s(monkeypatch):
    """Without ``implied_each`` (no guard), the figures above are the ones before the rule."""
    monkeypatch.setattr(runtime_order.RuntimeOrder, "implied_each", lambda self, task, position, fence=None: [])
    assert figures(chain_program(SWAP_LOOP)) == (4, 2, 2, 0)
    assert [figures(chain_program(FIRST_ITERATION_ALIAS), n) for n in (1, 2, 3)] == [(1, 1, 0, 0), (2, 1, 1, 0),
                                                                                    (3, 1, 2, 0)]
    assert [figures(chain_program(AFTER_A_SWAP_LOOP), n) for n in (1, 3)] == [(2, 1, 1, 0), (2, 1, 1, 0)]
