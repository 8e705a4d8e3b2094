"""How much ``runtime_order`` walks. It walks the rest of a block once per exit of a loop before
it at most ``SPLITS`` times a walk (its module docstring). A loop's own walk may spend the last
of them on the loops in its body: the rest of the block after it is then walked once, from the
meet of its exits. The budget is what keeps the walk of loops in sequence, each with a loop in
its body, linear in the loops rather than exponential. A loop walked again from the same state
in the same context, with a budget that makes the same walk, is not walked again
(``_Walker.exits``): the analysis is the same as with every such walk walked."""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

from conftest import EXAMPLES, load_program
from test_runtime_order_state import attack_programs
from nanopass.api import run_pipeline
from nanopass.loader import load_programs
from nanopass.passes import runtime_order

GOLDEN = Path(__file__).parent / "golden"

TILE = "pl.Tensor[[16, 16], pl.FP32]"


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
    body = "\n".join(lines)
    return f"""import nanopass.dsl as pl


@pl.program
class Loops:
    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, x: {TILE}, y: pl.InOut[{TILE}]) -> {TILE}:
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def step(self, y: {TILE}, t: pl.InOut[{TILE}]) -> {TILE}:
        return t

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.InOut[{TILE}], y: pl.InOut[{TILE}], t: pl.InOut[{TILE}], n: pl.Scalar[pl.INT64]) -> {TILE}:
{body}
        return y
"""


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
        visits[id(walker)] += 1
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


def analyses(path: Path, rewalking: bool) -> tuple[list, int]:
    """(every ``runtime_order`` result of a compile of ``path`` and its final tree, the loop walks
    made); with ``rewalking`` every loop is walked each time the walk reaches it."""
    results, walks = [], []
    original, walk_loop = runtime_order._runtime_order, runtime_order._Walker.walk_loop

    def recorded(program, track):
        out = original(program, track)
        results.append(None if out is None else (out.runtime, out.implied, out.ordered, list(out.fence_implied.values())))
        return out

    def counted(walker, loop, state):
        walks.append(loop)
        return walk_loop(walker, loop, state)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runtime_order, "_runtime_order", recorded)
        patch.setattr(runtime_order._Walker, "walk_loop", counted)
        if rewalking:
            patch.setattr(runtime_order._Walker, "exits", counted)
        stages = run_pipeline(load_program(path))
    return results + [stages[-1].tree], len(walks)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")) + sorted(GOLDEN.glob("*.py")), ids=lambda p: p.stem)
def test_walking_a_loop_once_per_state_changes_no_analysis_of_an_example(path):
    assert analyses(path, False)[0] == analyses(path, True)[0]


@pytest.mark.parametrize("index", range(12))
def test_walking_a_loop_once_per_state_changes_no_analysis_of_a_generated_program(index, tmp_path):
    path = tmp_path / "generated.py"
    path.write_text(attack_programs()[index])
    (once, walks), (every, rewalks) = analyses(path, False), analyses(path, True)
    assert once == every
    if index == 1:  # (seed 0, size 120: a loop reached again from the same state, 5 times per analysis)
        assert walks < rewalks, (walks, rewalks)
