"""Three carries rotated (or two of them swapped) over ``n`` iterations, read after the loop and
then written through the parameters (the adversarial tester's carries family,
tools/attack/carries.py, frame ``rotate``, ``rw``): each writer of ``p``, ``q``, ``r`` after the loop waits for the three reads after it
(which buffer each reads depends on ``n``). The figures are the emitted program's
(tools/measure_edges.py), computed by hand in each test; every program also passes the hazard
checker on every trip count tried."""

from __future__ import annotations

from dsl_header import header, orch
from test_lean_edges import TILE, checked_clean, insertions


def program(loop: str) -> str:
    return header([f"wr(out: pl.Out[{TILE}])", f"rd(a: {TILE}, out: pl.Out[{TILE}])"]) + orch(
        f"p: pl.InOut[{TILE}], q: pl.InOut[{TILE}], r: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]",
        f"""
        for i, (c0, c1, c2) in pl.range(n, init_values=(p, q, r)):
{loop}
        return p
""",
        returns=TILE,
    )


def rotated(body: str) -> str:
    return program(body + """
            d0, d1, d2 = pl.yield_(c1, c2, c0)
        f0, k0 = pl.submit(self.rd, d0)
        f1, k1 = pl.submit(self.rd, d1)
        f2, k2 = pl.submit(self.rd, d2)
        p = self.wr(p)
        q = self.wr(q)
        r = self.wr(r)""")


# The first iteration reads c0 (p) and writes c1 (q).
FIRST_ITERATION_MOVES = rotated("""            if i == 0:
                c1 = self.rd(c0, c1)""")

# Every iteration reads c0: p, q, r, p, ... (one join of every read).
EVERY_ITERATION_READS = rotated("""            f, k = pl.submit(self.rd, c0)""")


def figures(text: str, n: int) -> tuple:
    measured = insertions(text, n)
    return measured.insertions, measured.dummies


def test_a_writer_already_ordered_after_one_of_a_group_still_waits_on_the_groups_chain():
    """merge_cells_into_chains: ``wr(p)`` and ``wr(r)`` wait for the loop's move (its latest-run
    cell) and the three reads, ``wr(q)`` for the reads only (the runtime orders it after the
    move, which wrote q: drop_implied_dependencies took that edge). The group is the move's
    cell and the three reads' TaskIds, one chain: the move stores its TaskId, each read a
    barrier ``[chain, read]`` (2 entries, 1 dummy; 1 entry and none while the chain is
    empty), each writer 1 entry on the chain.

    n = 0: barriers of 1, 2, 2 entries (2 dummies), the writers 3: 7. n >= 1: the chain holds
    the move, barriers of 2, 2, 2 (3 dummies), the writers 3: 9. 34 over n = 0..3 (so on
    main); with ``wr(q)`` kept out of the chain the group was not merged: 3 x 3 edges on the
    reads and the move's cell on ``wr(p)``, ``wr(r)``: 9, then 11 (42)."""
    assert {n: figures(FIRST_ITERATION_MOVES, n) for n in range(4)} == {0: (7, 2), 1: (9, 3), 2: (9, 3), 3: (9, 3)}
    checked_clean(FIRST_ITERATION_MOVES, (0, 1, 2, 3))


def test_a_join_with_three_waiters_the_runtime_does_not_order_keeps_its_latest_run():
    """drop_latest_runs_from_joins: no writer after the loop is ordered after the loop's latest
    read by the runtime (which buffer it read depends on ``n``). Leaving that read out of the
    join would save the join's barrier before it (2 entries a chain of two runs or more) but
    cost each of the three writers an entry on the latest-run cell: 3 > 2, so the join keeps
    every read. The reads after the loop: the first one's TaskId, barriers ``[chain, read]``
    for the other two (2 + 2 entries, 2 dummies); each writer waits on the join (when a read
    ran) and on the chain.

    The join: a barrier ``[join, read]`` after each read but the first (2 entries, 1 dummy).
    n = 0: 4 + 3 = 7; n = 1: 4 + 6 = 10; n = 2: + 2 = 12; n = 3: 14 (2, 2, 3, 4 dummies), as
    on main. With the latest read out of the join: 7, 10, 13, 15 (a barrier ``[join, latest]``
    before each read after the second, each writer one entry more for n >= 2)."""
    after = {n: figures(EVERY_ITERATION_READS, n) for n in range(4)}
    assert after == {0: (7, 2), 1: (10, 2), 2: (12, 3), 3: (14, 4)}
    checked_clean(EVERY_ITERATION_READS, (0, 1, 2, 3))


# c0 and c1 swapped: A reads c1 into r every iteration, B (from the second) reads c1 into c0;
# after the loop d0 (the last c1) and d1 (the last c0, B's output if it ran) are written.
SWAPPED_MOVE = program("""            c2 = self.rd(c1, c2)
            if i >= 1:
                c0 = self.rd(c1, c0)
            d0, d1, d2 = pl.yield_(c1, c0, c2)
        d0 = self.wr(d0)
        d1 = self.wr(d1)""")


def test_a_writer_waiting_for_one_of_a_group_keeps_its_cell_for_clear_edges_where_implied():
    """merge_cells_into_chains leaves A's and B's latest-run cells apart: ``wr(d1)`` waits for
    A only (the runtime orders it after B, whose output it writes), one cell: merging saves it
    nothing, and its own cell of A is cleared after B (clear_edges_where_implied: B waits for
    A's latest run and ``wr(d1)`` is ordered after B), as is ``wr(d0)``'s; ``wr(d0)`` waits
    for B's cell too. A runs each iteration (its runs ordered by the runtime: each writes r),
    B waits for the latest A (1 entry a run).

    n = 1: each writer waits for A 0: 2. n = 2: B 1 waits for A 1 (1), then clears; ``wr(d0)``
    waits for B 1 (1), ``wr(d1)`` for nothing: 2. n = 3: B 2 one more: 3. With one chain for
    A and B (``wr(d1)`` on it too): 2, 3 and 4, each writer 1 entry on the chain."""
    assert {n: figures(SWAPPED_MOVE, n) for n in range(4)} == {0: (0, 0), 1: (2, 0), 2: (2, 0), 3: (3, 0)}
    checked_clean(SWAPPED_MOVE, (0, 1, 2, 3))
