"""materialize_runtime_scopes counts the allocations its visit meets instead of walking each body.

``allocates_in(body)`` (whether a loop body or branch makes an allocation at some depth) was one
walk of ``allocations.makes_allocations`` per yielding body, after one of the whole function;
the pass now notes it as its visit goes (its ``Let`` and ``Task`` handlers count the creates and
the runtime-allocated task results). These tests compare the two answers on every loop body and
branch of the pass's input, on every example and on random control-flow programs, and check that
the function is no longer walked for them.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import EXAMPLES, fuzz_budget, load_program
from program_gen import control_flow_programs

from nanopass.api import run_pipeline
from nanopass.languages.statements import iter_stmts
from nanopass.passes import materialize_runtime_scopes
from nanopass.passes.allocations import makes_allocations
from nanopass.passes.kernels import kernel_table
from nanopass.passes.pipeline import PIPELINE
from nanopass.rewrite import PassContext
from nanopass.tools.bench import source_of

PROPERTY = settings(max_examples=fuzz_budget(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def bodies_of(func) -> list:
    """Every loop body and if branch under the function's body."""
    out = []
    for stmt in iter_stmts(func.body):
        if stmt._production in ("For", "While"):
            out.append(stmt.body)
        elif stmt._production == "If":
            out += [stmt.then, stmt.orelse]
    return out


def check_counts(program) -> int:
    """Compare ``allocates_in`` after the pass with a walk of each body; returns the bodies that allocate."""
    stages = run_pipeline(program)
    source = stages[PIPELINE.names().index("materialize_runtime_scopes")].tree  # the pass's input
    pass_ = materialize_runtime_scopes.MaterializeRuntimeScopes(PassContext())
    pass_.run(source)
    kernels = kernel_table(source)
    allocating = 0
    for body in bodies_of(source.orch):
        walked = makes_allocations(SimpleNamespace(body=body), kernels)
        assert pass_.allocates_in(body) == walked, body
        allocating += walked
    return allocating


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")), ids=lambda p: p.stem)
def test_examples(path: Path):
    check_counts(load_program(path))


@PROPERTY
@given(control_flow_programs())
def test_random_programs(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    check_counts(load_program(path))


def test_an_allocating_branch_and_loop_are_counted(tmp_path):
    # a create in a loop body (yielded: the body keeps its buffers) and a task whose result the
    # runtime allocates in a branch; the count must see both (the comparison alone would pass
    # on a program with none)
    path = tmp_path / "p.py"
    path.write_text(
        "import nanopass.dsl as pl\n\n\n@pl.program\nclass P:\n"
        "    @pl.function(type=pl.FunctionType.AIV)\n"
        "    def step(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:\n"
        "        return dst\n\n"
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        "    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:\n"
        "        t = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
        "        for i in pl.range(n):\n"
        "            t = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
        "            t = self.step(x, t)\n"
        "        if n > 2:\n"
        "            u, tid = pl.submit(self.step, t)\n"
        "            y = self.step(u, y)\n"
        "        return y\n"
    )
    assert check_counts(load_program(path)) == 2


def test_the_function_is_not_walked_for_allocations(tmp_path, monkeypatch):
    # nested: every loop body yields y; the visit's count answers for each, no walk is made
    walked: list = []
    monkeypatch.setattr(materialize_runtime_scopes, "makes_allocations", lambda *a: walked.append(a) or True)
    path = tmp_path / "nested.py"
    path.write_text(source_of("nested", 8))
    run_pipeline(load_program(path))
    assert walked == []
