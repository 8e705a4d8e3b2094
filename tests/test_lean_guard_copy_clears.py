"""A task that waits on a guard's copy of a cell (``drop_implied_dependencies``: the cell, or no
task where the runtime orders the task after what the cell stands for) is a waiter of the cell
for ``clear_cells_after_waiters`` (issue 24): the copy no longer keeps the cell from being
cleared after it.

The program is the generator's manual seed 59 (tools/gen_programs.py, dependencies by
tools/fuzz_deps.derive_deps), which showed the class: in a ``pl.range(n)`` loop ``w2`` of manual
scopes, a ``pl.range(n)`` loop ``i3`` runs ``k_copy`` (into a tile the loops share), then, where
``i3 >= 1``, ``k_acc`` reading the tile. The compiler orders each ``k_copy`` after the latest
``k_acc`` (it overwrites what ``k_acc`` read) through the latest-run cell ``k_acc_last``, guarded
(``i3 == 0``: no task, the runtime orders it), and a ``k_add`` after the loop waits on the cell
too. Cleared after each ``k_copy`` (and after the ``k_add``), the cell holds, at the next
``k_copy``, only a ``k_acc`` since; kept, the second iteration of ``i3`` in each later run of
``w2`` finds the last ``k_acc`` of the run before, which the first ``k_copy`` of this run is
ordered after (by its barrier on the user's ``c_8``), and inserts an edge on it: one a later run
of ``w2``, none with n <= 1 (``i3`` makes no second iteration), 1 with n = 2, 2 with n = 3."""

from __future__ import annotations

import random

from test_lean_edges import checked_clean, insertions

import nanopass.passes.clear_cells_after_waiters as clear
from nanopass.tools.fuzz_deps import derive_deps
from nanopass.tools.gen_programs import RandomChooser, generate


def program() -> str:
    generated = generate(RandomChooser(59), manual=True, max_statements=9)
    return generated.render(derive_deps(generated, random.Random(59))[0])


def test_the_program_is_the_one_described():
    text = program()
    for line in ("for w2 in pl.range(n):", "for i3, (p4, q5) in pl.range(n, init_values=(y1, y0)):",
                 "t6, tid_7 = pl.submit(self.k_copy, p4, t6, deps=[b_7_0])", "if i3 >= 1:",
                 "q5, tid_8 = pl.submit(self.k_acc, t6, q5, deps=[b_8_0])",
                 "y0, tid_11 = pl.submit(self.k_add, o9, x0, y0, deps=[c_7, c_8])"):
        assert line in text


def test_a_guard_copy_is_a_waiter_of_the_cell(monkeypatch):
    """With the walk of the second iteration of ``i3`` recorded under ``i3 == 1``
    (``_Walker.implied_key``) the guard leaves the edge out there too (the first ``k_copy`` of
    the run is ordered after the last ``k_acc`` of the run before), and the cell is not read
    there: the figures are those of the clear. The guard on ``i3 == 0`` alone (the walk
    recorded under its bound, ``i3 >= 1``) keeps the class this test is of."""
    from nanopass.passes.drop_implied_dependencies import DropImpliedDependencies
    from nanopass.passes.runtime_order import _Walker

    monkeypatch.setattr(_Walker, "implied_key", lambda self: frozenset(self.values.items()))
    text = program()
    # (the guard on ``i3 == 0`` alone: its conjunctions, ``i3`` known 1 in the second iteration
    # walked apart, make the same figures, 0 5 22 54, without the copies)
    monkeypatch.setattr(DropImpliedDependencies, "conjunctions", lambda self, stmt, k, run, singles: [])
    with_copies = [insertions(text, n).insertions for n in (0, 1, 2, 3)]
    monkeypatch.setattr(clear, "guard_copies", lambda body, waiters, others: {})
    without = [insertions(text, n).insertions for n in (0, 1, 2, 3)]
    assert [b - a for a, b in zip(with_copies, without)] == [0, 0, 1, 2]
    monkeypatch.undo()
    assert [insertions(text, n).insertions for n in (0, 1, 2, 3)] == with_copies
    checked_clean(text, (0, 1, 2, 3))
