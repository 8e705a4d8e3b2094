"""lower_to_emission's ``survey`` leaves unread the reads of a statement met while every name
asked so far is known read (``IDLE_READS_SKIPPED``): such a statement reads only names defined
before it, each asked about where it is defined. Forced off (every statement's reads read), the
emission is the same on every example and golden program, the bench shapes and random programs;
on the mixed shape the shortcut is taken (loop variables read only by idle statements are left out)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import bench_file, corpus_tests, pass_inputs, pass_runs, random_file, run_both_ways, running

from nanopass.languages.statements import iter_stmts
from nanopass.passes import lower_to_emission
from nanopass.passes.lower_to_emission import LowerToEmission
from nanopass.rewrite import PassContext

FORCED_OFF = [(lower_to_emission, "IDLE_READS_SKIPPED", False)]


def check(path: Path) -> int:
    """The pass's output on its inputs from ``path``, with the shortcut and forced off, is one."""
    runs = 0
    for given in pass_inputs(path, "lower_to_emission"):
        fast, full = run_both_ways(running(LowerToEmission), given, FORCED_OFF)
        assert fast == full, path.name
        runs += 1
    return runs


test_programs, test_shapes = corpus_tests(check)


def test_random_programs(tmp_path):
    assert sum(check(random_file(tmp_path, seed, seed % 3 == 1)) for seed in range(4430, 4470)) >= 30


def test_the_mixed_shape_leaves_the_reads_of_its_idle_statements_unread(tmp_path):
    ((given, _),) = pass_runs(bench_file(tmp_path, "mixed", 24), "lower_to_emission")
    func = given.orch
    asked = {s.param for s in func.slots}

    def used(skipped: bool) -> set[str]:
        lowering = LowerToEmission(PassContext())
        lowering.prepare(given)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(lower_to_emission, "IDLE_READS_SKIPPED", skipped)
            return lowering.survey(func.body, asked)[0]

    fast, full = used(True), used(False)
    assert fast < full  # (loop variables, read by idle statements only)


IF_BEFORE_LOOP = '''import nanopass.dsl as pl


@pl.program
class IfBeforeLoop:
    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, src: pl.Tensor[[16, 16], pl.FP32], k: pl.Scalar[pl.INT64], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        if n > 0:
            y = self.acc(x, 0, y)
        else:
            y = self.acc(x, 1, y)
        for i in pl.range(4):
            y = self.acc(x, i, y)
        return y
'''


def test_an_if_condition_is_read_where_the_if_is_met(tmp_path):
    """The parameter ``n``, read only by the if's condition, is known read from the if on: the
    loop's task after it is idle, and its loop variable, read by that task only, is left out."""
    path = tmp_path / "if_before_loop.py"
    path.write_text(IF_BEFORE_LOOP)
    ((given, _),) = pass_runs(path, "lower_to_emission")
    func = given.orch
    asked = {s.param for s in func.slots}
    loop_vars = {s.var.name for s in iter_stmts(func.body) if s._production == "For"}
    assert len(loop_vars) == 1 and asked >= {"n"}

    def used(skipped: bool) -> set[str]:
        lowering = LowerToEmission(PassContext())
        lowering.prepare(given)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(lower_to_emission, "IDLE_READS_SKIPPED", skipped)
            return lowering.survey(func.body, asked)[0]

    fast, full = used(True), used(False)
    assert "n" in fast and not loop_vars & fast
    assert loop_vars <= full
    assert check(path) == 1
