"""A loop that swaps its carries, of bounds that read only the function's scalar parameters,
inside another loop (issue 24, seeds 37010 and 35038 of measure_generated): it makes the same
number of trips each time it runs, so ``runtime_order`` walks the function once per parity of
its trips (``invariant_parity_loops``) and leaves it by the exits of that parity alone; and an
edge on a latest-run cell implied where a loop's trips say, after a run of the task it names,
waits on a guard's cell (``drop_implied_dependencies``). Figures (tools/measure_edges.py) by
hand, and the hazard checker on each program."""

from __future__ import annotations

import nanopass.passes.loop_facts as loop_facts
import nanopass.passes.runtime_order as runtime_order

from test_lean_edges import chain_program, checked_clean, insertions

# the inner loop swaps its carries (no task): after it q2 is t after an even number of trips
# (none included) and y after an odd one; the step reads and writes q2; acc writes y after the
# outer loop
SWAP_IN_A_LOOP = """        for j in pl.range(2):
            for i, (p, q) in pl.range(n, init_values=(y, t)):
                p2, q2 = pl.yield_(q, p)
            q2 = self.step(q2, q2)
        y = self.acc(x, y)"""


def figures(text: str, n: int) -> tuple:
    found = insertions(text, n)
    return found.insertions, found.redundant, found.minimum, found.dummies


def test_the_runs_of_a_task_on_a_swapped_carry_are_chained_by_the_parity_each_outer_iteration_shares():
    """acc writes ``y``, which the step may have read (``q2``): the hazard passes give it a
    write-after-read edge on every run of the step (its join). The two runs of the step (j = 0,
    1) touch the same tensor, ``t`` for n even and ``y`` for n odd (``n`` is the same in both
    outer iterations), so the second's lookup finds the first: the runs are chained and the join
    is the latest run (``drop_chained_join_barriers``); for n odd acc's own lookup of ``y`` finds
    that run, so its edge goes there (a guard on the parity). By hand: n even, 1 insertion (the
    step at j = 1 before acc, needed: acc's lookups find nothing of it), 0 redundant, minimum 1;
    n odd, none. Without the split by parity the walk of j = 1 starts from the meet of the two
    parities' exits and finds the runs unchained: 2 insertions each, the first redundant (n
    even: the second step's lookup of ``t`` finds it) or both (n odd: acc's lookup of ``y``)."""
    text = chain_program(SWAP_IN_A_LOOP)
    assert [figures(text, n) for n in (0, 1, 2, 3)] == [(1, 0, 1, 0), (0, 0, 0, 0), (1, 0, 1, 0), (0, 0, 0, 0)]
    checked_clean(text, trips=(0, 1, 2, 3))


def test_a_swap_loop_whose_trips_the_outer_counter_decides_is_not_split_by_parity():
    """``pl.range(j)`` makes 0, 1, 2 trips in the iterations of ``j``: its parity is no fact of
    the run, and the analysis finds none for it (a guard on it would read ``j`` outside its
    loop). Its swap loop in the first case's loop is found."""
    from nanopass.tools.properties import compile_text

    varying = chain_program(SWAP_IN_A_LOOP.replace("pl.range(n, init", "pl.range(j, init"))
    for text, found in ((varying, 0), (chain_program(SWAP_IN_A_LOOP), 1)):
        stages, _ = compile_text(text, {})
        func = stages["expand_manual_phase_fence"].tree.orch
        stmts = list(runtime_order.iter_stmts(func.body))
        assert len(loop_facts.invariant_parity_loops(func, stmts)) == found
    checked_clean(varying, trips=(0, 1))


# acc writes y, which the step of the iteration before read (a write-after-read edge on the
# step's latest run, through its cell); in the odd iterations a second acc reads the step's t
# and writes y after it
GUARD_AFTER_A_RUN = """        for i in pl.range(n):
            y = self.acc(x, y)
            t = self.step(y, t)
            if i % 2 == 1:
                y = self.acc(t, y)"""


def test_no_guard_where_the_task_an_edge_names_has_not_run():
    """acc's edge on the step's latest-run cell is implied at i = 0 only because the step has
    not run (the cell holds none there): no guard on ``i == 0`` for it, which would set the cell
    anew in every iteration and keep ``clear_edges_where_implied`` from clearing it after the
    second acc, whose write of ``y`` acc's next lookup finds (after the step). By hand: the
    edge at i = 1 is needed (the step at i = 0 read ``y``), at i = 2 implied (the second acc at
    i = 1 ran after the step of i = 1): n = 2 and n = 3, 1 insertion, none redundant, minimum 1
    (with the guard on ``i == 0``: n = 3, 2 insertions, 1 redundant)."""
    text = chain_program(GUARD_AFTER_A_RUN)
    assert [figures(text, n) for n in (0, 1, 2, 3)] == [(0, 0, 0, 0), (0, 0, 0, 0), (1, 0, 1, 0), (1, 0, 1, 0)]
    checked_clean(text, trips=(0, 1, 2, 3))
