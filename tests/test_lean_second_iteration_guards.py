"""Two rules of issue 24 on one program (the class of the generator's seed 53037):

- a loop whose ``if`` tests its counter has its second iteration walked apart from the third on
  (``second_and_rest``); ``runtime_order`` records what that walk implies under the counter's
  exact value (``implied_at`` keyed by ``_Walker.exact`` too), so that
  ``drop_implied_dependencies``' guard leaves an edge out where the counter is 1 as well as 0;
- ``clear_cells_after_waiters`` clears a cell that holds one task's run or none (the first-run
  cell of ``drop_edges_after_first_run``, ``cleared_cells``) after a waiter, as it does a
  latest-run cell.

The program: in each of two outer iterations, a ``pl.range(n)`` loop runs ``acc`` on ``y`` (A),
``copy`` reading ``y`` (C) and, where ``i == 0``, ``acc`` on ``y`` again (B); after it a
``pl.range(2)`` loop runs ``acc`` on ``y`` (D). Each write of ``y`` must come after the ``copy``
runs that read ``y`` before it (a write-after-read the runtime does not order): B after C(0),
A(i) after C(i - 1), D's first run after the last C. The runtime orders each write of ``y``
after the one before (the TensorMap), so A(1) comes after B, which waited for C(0); the first
D after B where the inner loop made one trip; A(0) of the second outer iteration after the D
runs of the first, the first of which waited for the last C.

Needed per outer iteration: B's edge (1), A(i)'s for 2 <= i < n (n - 2 where n >= 2) and D's
first run's where n >= 2 (1): 1 with n = 1, 2 with n = 2, 3 with n = 3; twice that in all.
Without the first rule A(1) inserts its edge on C(0) in each outer iteration (the guard tests
``i == 0`` only: +2 with n >= 2); without the second, D's first run inserts its edge on C(0)
where n = 1 (+2). The figures are the emitted program's (tools/measure_edges.py), computed by
hand; the program also passes the hazard checker.
"""

from __future__ import annotations

from dsl_header import program
from test_lean_edges import checked_clean, insertions

import nanopass.passes.clear_cells_after_waiters as clear

T = "pl.Tensor[[8, 8], pl.FP32]"

PROGRAM = program(
    [f"copy(a: {T}, out: pl.Out[{T}])", f"acc(a: {T}, y: pl.InOut[{T}])"],
    f"x: {T}, y: pl.InOut[{T}], n: pl.Scalar[pl.INT64]",
    f"""
    for k in pl.range(2):
        for i in pl.range(n):
            y = self.acc(x, y)
            t: {T} = pl.create_tensor([8, 8], dtype=pl.FP32)
            t = self.copy(y, t)
            if i == 0:
                y = self.acc(x, y)
        for j in pl.range(2):
            y = self.acc(x, y)
    return y
""",
    returns=T,
)


def figures(n: int):
    f = insertions(PROGRAM, n)
    return f.insertions, f.redundant, f.minimum


def test_an_edge_implied_in_the_second_iteration_apart_is_left_out_there():
    """n = 2: B 1, D 1 per outer iteration (A(1) none): 4; n = 3: A(2) 1 more each: 6."""
    assert figures(2) == (4, 0, 4)
    assert figures(3) == (6, 0, 6)
    assert figures(4) == (8, 0, 8)


def test_a_first_run_cell_is_cleared_after_a_waiter_the_later_waiters_follow():
    """n = 1: B's edge on C(0) in each outer iteration, no other (D looks up y after B): 2; with
    the first-run cell not cleared after B, D's first run waits on it, C(0): 2 more, redundant."""
    assert figures(0) == (0, 0, 0)
    assert figures(1) == (2, 0, 2)
    original = clear.cleared_cells
    clear.cleared_cells = lambda body, order: {}
    try:
        assert figures(1) == (4, 2, 2)
    finally:
        clear.cleared_cells = original


def test_the_program_keeps_every_order():
    checked_clean(PROGRAM, (0, 1, 2, 3))
