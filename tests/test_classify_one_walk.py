"""classify_iter_arg_carry finds the roots in one walk, guessing that every tensor or array carry
whose init is a variable is its init, and checks the guess loop by loop in its visit
(``run_in_one_walk``); where the guess is wrong (a carry rebound, a TaskId if result) it starts
again and classifies the carries to their fixpoint, as it does with the shortcut off.

On every example and golden program, every bench shape and random programs, the pass's output
(or refusal) is the same with the shortcut on and off; the guess holds on the bench shapes (no
second start) and is found wrong, and the pass started again, on programs whose carries are
rebound or whose if results are TaskIds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import (
    EXAMPLES_AND_GOLDEN,
    SHAPES,
    bench_file,
    counting,
    load_program,
    outcome_running,
    pass_inputs,
    pass_runs,
    random_file,
    run_both_ways,
)

from nanopass.api import run_pipeline
from nanopass.passes import classify_iter_arg_carry
from nanopass.languages.statements import iter_stmts
from nanopass.passes.classify_iter_arg_carry import ClassifyIterArgCarry, is_task_id

CLASSIFY = "classify_iter_arg_carry"
OFF = [(classify_iter_arg_carry, "ONE_WALK", False)]


def same_both_ways(path: Path) -> int:
    """The pass gives the same output (or refusal) with the shortcut on and off on each of its
    inputs from ``path``; returns how many it compared."""
    inputs = pass_inputs(path, CLASSIFY)
    for given in inputs:
        fast, full = run_both_ways(outcome_running(ClassifyIterArgCarry), given, OFF)
        assert fast == full, path.name
    return len(inputs)


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=[p.stem for p in EXAMPLES_AND_GOLDEN])
def test_one_walk_changes_no_plan(path: Path):
    same_both_ways(path)


@pytest.mark.parametrize("shape", SHAPES)
def test_one_walk_changes_no_plan_of_a_shape(tmp_path, shape):
    assert same_both_ways(bench_file(tmp_path, shape, 24)) == 1


def test_one_walk_changes_no_plan_of_random_programs(tmp_path):
    compared = sum(same_both_ways(random_file(tmp_path, seed, manual=seed % 3 == 0)) for seed in range(4300, 4360))
    assert compared >= 40


def restarts(monkeypatch, path: Path) -> int:
    """How many times the pass started again in the compile of ``path`` (its guess found wrong)."""
    calls = counting(monkeypatch, ClassifyIterArgCarry, "release_handlers")
    run_pipeline(load_program(path))
    return len(calls)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_guess_holds_on_the_bench_shapes(tmp_path, monkeypatch, shape):
    assert restarts(monkeypatch, bench_file(tmp_path, shape, 8)) == 0


REBOUND = """\
import nanopass.dsl as pl


@pl.program
class Rebound:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], a: pl.Tensor[[16, 16], pl.FP32],
             b: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.range(4):
            a = self.step(a, b)  # (a carry of a's storage, then b's)
        return a
"""


def test_a_rebound_carry_starts_the_pass_again(tmp_path, monkeypatch):
    path = tmp_path / "rebound.py"
    path.write_text(REBOUND)
    assert same_both_ways(path) == 1
    assert restarts(monkeypatch, path) == 1
    ((_, output),) = pass_runs(path, CLASSIFY)
    (loop,) = [stmt for stmt in iter_stmts(output.orch.body) if stmt._production == "For"]
    assert [it.plan.rebind for it in loop.iters] == [True]


TASK_ID_IF = '''\
import nanopass.dsl as pl


@pl.program
class TidIf:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
             n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            y, first = pl.submit(self.step, x, y)
            if n > 3:
                y, chosen = pl.submit(self.step, x, y, deps=[first])
            else:
                chosen = first
            y, last = pl.submit(self.step, x, y, deps=[chosen])
        return y
'''


def test_a_task_id_if_result_starts_the_pass_again(tmp_path, monkeypatch):
    path = tmp_path / "task_id_if.py"
    path.write_text(TASK_ID_IF)
    ((given, _),) = pass_runs(path, CLASSIFY)
    statements = list(iter_stmts(given.orch.body))
    assert any(stmt._production == "If" and any(is_task_id(result) for result in stmt.results) for stmt in statements)
    assert not any(stmt._production == "For" for stmt in statements)  # (no TaskId loop carry: no shapes looked for)
    assert restarts(monkeypatch, path) == 1
    assert same_both_ways(path) == 1
