"""The splits of ``runtime_order``'s walk cost at most a bounded share of the function.

A split walks the rest of a block once per exit of the loop before it (module docstring). The
budget of ``SPLITS`` splits per walk bounded their number, not their cost: on the irregular
programs of the adversarial tester's surface generator, whose rests hold loops nested in loops,
the sixteen splits re-walked the rests' loops from states of their own, and an analysis visited
over a hundred statements per statement of the function (a 1,100-line program compiled in 17 s,
0.3 s without the lean passes). The rests walked again are now counted, in statements with a
loop's body counted twice (``_walk_cost``), and a split that would take them past
``SPLIT_STMTS + SPLIT_STMTS_PER_STMT * statements`` is not made: the exits meet, as when the
number of splits is spent. Fewer splits only lose precision (an edge kept), never an order.
"""

from __future__ import annotations

import pytest

from nanopass.api import run_pipeline
from nanopass.loader import load_programs
from nanopass.passes import runtime_order
from nanopass.passes.util import iter_stmts
from nanopass.tools.scale_hunt import source


def walked(path, unbounded: bool) -> tuple[list[float], list[tuple[bool, int, int]]]:
    """Of a compile of ``path``'s ``orch``: per ``runtime_order`` analysis, the statements its walk
    visited per statement of the function; per split asked for, (whether it was made, the
    statements walked again by splits so far, their limit). ``unbounded``: no bound on the
    splits' cost."""
    visits = [0]
    per_statement, splits = [], []
    walk, analyse, affords = runtime_order._Walker.walk, runtime_order._runtime_order, runtime_order._Walker.affords_split

    def counted_walk(walker, body, state):
        visits[0] += len(body)
        return walk(walker, body, state)

    def counted_analysis(program, track):
        before = visits[0]
        result = analyse(program, track)
        per_statement.append((visits[0] - before) / sum(1 for _ in iter_stmts(program.orch.body)))
        return result

    def recorded_split(walker, body, start):
        made = affords(walker, body, start)
        splits.append((made, walker.split_stmts, walker.split_limit))
        return made

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runtime_order._Walker, "walk", counted_walk)
        patch.setattr(runtime_order, "_runtime_order", counted_analysis)
        patch.setattr(runtime_order._Walker, "affords_split", recorded_split)
        if unbounded:
            patch.setattr(runtime_order, "SPLIT_STMTS", 10**9)
        run_pipeline(load_programs(str(path))[0], "orch")
    return per_statement, splits


def test_the_splits_of_an_irregular_program_cost_a_bounded_share_of_its_walk(tmp_path):
    path = tmp_path / "surface.py"
    path.write_text(source("surface", 2, 160, False))  # (487 statements when the lean passes start)
    (bounded, splits), (unbounded, _) = walked(path, False), walked(path, True)
    # 26.4 statements visited per statement at most, against 127.5 with the splits unbounded (as before)
    assert bounded and max(bounded) < 40, max(bounded)
    assert max(unbounded) > 3 * max(bounded), (max(unbounded), max(bounded))
    # splits were made and refused, and the rests walked again never exceed the limit
    assert {made for made, _, _ in splits} == {True, False}
    assert all(used <= limit for _, used, limit in splits)
