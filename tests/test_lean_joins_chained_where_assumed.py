"""A lagged join's barrier is left out where an invariant condition (an ``if`` in a loop that
reads only the function's scalar parameters: ``loop_facts.invariant_conditions``) has the value
in whose walks the joined task's runs are each ordered after the one before
(``RuntimeOrder.chained_each`` of ``(ASSUME, key)``, ``RuntimeOrder.conditions``;
drop_latest_runs_from_joins' ``counter_tests`` tests it, or its ``not``, beside the counters:
issue 24).

The program is the generator's seed 53144 (tools/gen_programs.py), which showed the class. In
``for i1 in pl.range(3)`` (carries ``p2, q3`` from ``s0, y1``, the next ``p2`` the last ``q3``:
``s0, y1, s0``), ``for i4 in pl.range(0, 6, 2)`` runs ``w5 = k_copy(y0, p2)`` (reads ``y0``,
writes ``p2``: its runs in one outer iteration follow each other), then a second ``k_copy`` and a
``k_acc`` on ``y1``; after the inner loop, ``if n == 0`` reads and writes ``flags`` on the host,
else ``k_add`` writes ``y0`` after every run of ``w5`` (which read it: a join), and after the outer
loop ``k_add`` writes ``y0`` again. Where ``n != 0`` every run of ``w5`` comes after every earlier
one (the first of an outer iteration looks ``y0`` up, after the ``else`` ``k_add``, after every run
before); where ``n == 0`` the run at ``i1 = 1, i4 = 0`` writes ``y1`` after none of the runs
before. The join is lagged (a barrier before each run of ``w5`` joins it and the latest-run
cell), left out where the counters say the run follows the previous one (``i1 == 2 or i4 ==
2``) and now also where ``not (n == 0)``. With n >= 1 the barrier before ``i4 = 4`` of outer
iterations 0 and 1 has one entry (the run at ``i4 = 2``; the ``else`` ``k_add`` cleared the join:
not submitted) but moves that run into the join, and the ``else`` ``k_add`` then waits on the join
and the latest-run cell, 2 entries, one redundant; without the barrier the join is empty there:
1. Saved: 2 for each n >= 1, none with n = 0 (the barriers stay)."""

from __future__ import annotations

from test_lean_edges import checked_clean, insertions

import nanopass.passes.runtime_order as runtime_order
from nanopass.tools.gen_programs import RandomChooser, generate


def program() -> str:
    return generate(RandomChooser(53144), manual=False, max_statements=9).render(None)


def test_the_program_is_the_one_described():
    text = program()
    for line in ("for i1, (p2, q3) in pl.range(3, init_values=(s0, y1)):", "for i4 in pl.range(0, 6, 2):",
                 "w5 = self.k_copy(y0, p2)", "if n == 0:", "y0 = self.k_add(p2, q3, y0)",
                 "o9, o10 = pl.yield_(q3, s0)"):
        assert line in text


def test_a_lagged_joins_barrier_is_left_out_where_an_invariant_condition_says_the_runs_are_chained(monkeypatch):
    text = program()
    with_conditions = [insertions(text, n).insertions for n in (0, 1, 2, 3)]
    chained_each = runtime_order.RuntimeOrder.chained_each
    monkeypatch.setattr(runtime_order.RuntimeOrder, "chained_each", lambda self, task, every=False: [
        (v, values) for v, values in chained_each(self, task, every)
        if not (isinstance(v, tuple) and v[0] == runtime_order.ASSUME)])
    without = [insertions(text, n).insertions for n in (0, 1, 2, 3)]
    assert [b - a for a, b in zip(with_conditions, without)] == [0, 2, 2, 2]
    monkeypatch.undo()
    checked_clean(text, (0, 1, 2, 3))
