"""remove_dead_values declares the yields preserved: a dead carry or if result goes with its value
in each final yield (an emptied yield goes too), and only lets are removed besides. The pipeline
no longer checks the yields of its output; these tests recheck them (``recheck_preserved``) on
programs where the pass drops carries and if results, and show that a pass breaking them would
be caught by the recheck."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import fuzz_budget, load_program
from program_gen import control_flow_programs

from nanopass.api import surface_of
from nanopass.errors import VerifyError
from nanopass.languages.ssa import check_yields
from nanopass.languages.statements import reusing_walks
from nanopass.passes import remove_dead_values
from nanopass.passes.pipeline import PIPELINE
from nanopass.pipeline import PipelineError
from nanopass.rewrite import PassContext
from nanopass.tools.bench import source_of

PROPERTY = settings(max_examples=fuzz_budget(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])

DEAD_CARRIES = """import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        k = 0
        j = 1
        for i in pl.range(n):
            k = k + i
            j = j * 2
            y = self.step(x, y)
        if n > 2:
            k = 5
            y = self.step(x, y)
        else:
            k = 6
        return y
"""


def run(path, recheck: bool, stop_after=None):
    with reusing_walks():
        return PIPELINE.run(surface_of(load_program(path)), PassContext(), input_name="parse_dsl", recheck_preserved=recheck,
                            stop_after=stop_after)


def dropped(stages) -> tuple[int, int]:
    """(carries, if results) the pass removed."""
    from nanopass.languages.statements import iter_stmts

    def count(tree):
        stmts = list(iter_stmts(tree.orch.body))
        return (sum(len(s.iters) for s in stmts if s._production in ("For", "While")),
                sum(len(s.results) for s in stmts if s._production == "If"))

    before, after = count(stages["split_joins_by_iteration"].tree), count(stages["remove_dead_values"].tree)
    return before[0] - after[0], before[1] - after[1]


def test_dead_carries_and_if_results_keep_the_yields(tmp_path):
    path = tmp_path / "p.py"
    path.write_text(DEAD_CARRIES)
    stages = run(path, recheck=True)
    carries, results = dropped(stages)
    assert carries == 2 and results == 1  # k and j of the loop (its yield keeps y), k of the if
    for shape in ("mixed", "branches"):
        (path := tmp_path / f"{shape}.py").write_text(source_of(shape, 6))
        run(path, recheck=True)


@PROPERTY
@given(control_flow_programs())
def test_random_programs(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    run(path, recheck=True)


def test_a_pass_that_left_the_yields_whole_is_caught_by_the_recheck(tmp_path, monkeypatch):
    path = tmp_path / "p.py"
    path.write_text(DEAD_CARRIES)
    monkeypatch.setattr(remove_dead_values, "_drop_yield_values", lambda body, keep: tuple(body))
    run(path, recheck=False, stop_after="remove_dead_values")  # trusted: the declaration is believed
    with pytest.raises(PipelineError) as info:
        run(path, recheck=True, stop_after="remove_dead_values")
    assert isinstance(info.value.error, VerifyError) and info.value.error.pass_name == "remove_dead_values"
    assert check_yields in remove_dead_values.RemoveDeadValues.preserves
