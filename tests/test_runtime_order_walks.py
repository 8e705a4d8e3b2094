"""How much ``runtime_order`` walks. It walks the rest of a block once per exit of a loop before
it at most ``SPLITS`` times a walk (its module docstring). A loop's own walk may spend the last
of them on the loops in its body: the rest of the block after it is then walked once, from the
meet of its exits. The budget is what keeps the walk of loops in sequence, each with a loop in
its body, linear in the loops rather than exponential. A loop walked again from the same state
in the same context, with a budget that makes the same walk, is not walked again
(``_Walker.exits``), and a task's ``order`` entry is forgotten after the last statement of the
function's body that reads it (``orders_unread_after``): the analysis is the same as with every
such walk walked, and as with no entry forgotten."""

from __future__ import annotations

import collections
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import EXAMPLES, fuzz_budget, load_program
from program_gen import control_flow_programs
from test_lean_edges import TILE, chain_program
from test_runtime_order_state import attack_programs
from nanopass.api import run_pipeline
from nanopass.loader import load_programs
from nanopass.passes import runtime_order

GOLDEN = Path(__file__).parent / "golden"


def loops_in_sequence(k: int) -> str:
    """``k`` loops that may not run, one after the other, each with a loop that may not run
    before the last statement of its body."""
    lines = []
    for i in range(k):
        lines += [f"        for i{i} in pl.range(n):",
                  f"            for j{i} in pl.range(n):",
                  "                y = self.acc(x, y)",
                  "            t = self.step(y, t)",
                  "        x = self.step(t, x)"]
    return chain_program("\n".join(lines), x=f"pl.InOut[{TILE}]")


def walks(tmp_path, k: int) -> tuple[list, list]:
    """(the split budget at the start of every block walk, the task visits of each analysis) of
    a compile of ``loops_in_sequence(k)``."""
    path = tmp_path / "loops.py"
    path.write_text(loops_in_sequence(k))
    budgets, visits = [], collections.Counter()
    run, task = runtime_order._Walker.run, runtime_order._Walker.Task

    def counted_run(walker, body, state):
        budgets.append(walker.splits)
        return run(walker, body, state)

    def counted_task(walker, stmt, state):
        visits[walker] += 1  # (by the walker itself: an id may be reused once a walker is freed)
        return task(walker, stmt, state)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runtime_order._Walker, "run", counted_run)
        patch.setattr(runtime_order._Walker, "Task", counted_task)
        run_pipeline(load_programs(str(path))[0])
    return budgets, list(visits.values())


def test_the_split_budget_is_never_overspent(tmp_path):
    budgets, visits = walks(tmp_path, 8)
    assert visits and min(budgets) >= 0, min(budgets)  # (-1,001 before the budget was checked after the loop's walk)


def test_the_walk_of_loops_in_sequence_grows_linearly(tmp_path):
    small, large = (max(walks(tmp_path, k)[1]) for k in (4, 8))
    # 146 and 406 task visits; 248 and 4,328 before the budget was checked after the loop's walk
    assert large < 4 * small, (small, large)


def analyses(path: Path, rewalking: bool = False, forgetting_orders: bool = True) -> tuple[list, int, int]:
    """(every ``runtime_order`` result of a compile of ``path`` and its final tree, the loop walks
    made, the order entries a new run rewrites, summed); with ``rewalking`` every loop is walked
    each time the walk reaches it; without ``forgetting_orders`` no order entry is forgotten."""
    results, walks, entries = [], [], []
    original, walk_loop, ran = runtime_order._runtime_order, runtime_order._Walker.walk_loop, runtime_order.State.ran

    def recorded(program, track):
        out = original(program, track)
        results.append(None if out is None else (out.runtime, out.implied, out.ordered, list(out.fence_implied.values())))
        return out

    def counted(walker, loop, state):
        walks.append(loop)
        return walk_loop(walker, loop, state)

    def counted_ran(state, task):
        entries.append(len(state.order))
        return ran(state, task)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runtime_order, "_runtime_order", recorded)
        patch.setattr(runtime_order._Walker, "walk_loop", counted)
        patch.setattr(runtime_order.State, "ran", counted_ran)
        if rewalking:
            patch.setattr(runtime_order._Walker, "exits", counted)
        if not forgetting_orders:
            patch.setattr(runtime_order, "orders_unread_after", lambda body, stmts, out: {})
        stages = run_pipeline(load_program(path))
    return results + [stages[-1].tree], len(walks), sum(entries)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")) + sorted(GOLDEN.glob("*.py")), ids=lambda p: p.stem)
def test_no_rewalk_and_no_forgotten_order_changes_an_analysis_of_an_example(path):
    analysis = analyses(path)[0]
    assert analysis == analyses(path, rewalking=True)[0]
    assert analysis == analyses(path, forgetting_orders=False)[0]


@pytest.mark.parametrize("index", range(12))
def test_no_rewalk_and_no_forgotten_order_changes_an_analysis_of_a_generated_program(index, tmp_path):
    path = tmp_path / "generated.py"
    path.write_text(attack_programs()[index])
    (analysis, walks, entries), (rewalked, rewalks, _), (remembered, _, remembered_entries) = (
        analyses(path), analyses(path, rewalking=True), analyses(path, forgetting_orders=False))
    assert analysis == rewalked == remembered
    if index == 1:  # (seed 0, size 120: a loop reached again from the same state, 5 times per analysis)
        assert walks < rewalks, (walks, rewalks)
    if index == 11:  # (seed 5, size 120: 241 entries rewritten against 1,145 with none forgotten)
        assert entries < 0.8 * remembered_entries, (entries, remembered_entries)


@settings(max_examples=fuzz_budget(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(control_flow_programs())
def test_no_rewalk_and_no_forgotten_order_changes_an_analysis_of_a_random_program(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    analysis = analyses(path)[0]
    assert analysis == analyses(path, rewalking=True)[0]
    assert analysis == analyses(path, forgetting_orders=False)[0]
