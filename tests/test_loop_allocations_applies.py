"""``place_loop_allocations_before_scopes``'s early exit (``applies``: whether an allocation is
made in a loop inside a user scope) walks the body once, each statement met once, where its
definition walks each loop inside each scope again (a statement in a nest of ``d`` loops is
asked ``d`` times); only tasks are asked ``may_allocate``. Compared with that definition on the pass's input for every example, golden
and found program and on random control-flow programs; the single visit counted on a nest of
three loops in a scope."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from conftest import CORPUS, fuzz_budget, pass_inputs
from program_gen import control_flow_programs

from nanopass.languages.statements import iter_stmts
from nanopass.passes import place_loop_allocations_before_scopes as placing
from nanopass.passes.kernels import kernel_table
from nanopass.rewrite import PassContext

PROPERTY = settings(max_examples=fuzz_budget(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAME = "place_loop_allocations_before_scopes"


def placer(program):
    out = placing.PlaceLoopAllocationsBeforeScopes(PassContext())
    out.kernels = kernel_table(program)
    return out


def applies_by_definition(placer, func) -> bool:
    """An allocation (a create, or a task output the runtime allocates) in the body of a loop in
    the body of a user scope, at any depth: each scope, each loop in it, each statement in it."""
    return any(placer.may_allocate(stmt) or placing._is_create(stmt)
               for scope in iter_stmts(func.body) if scope._production == "Scope"
               for loop in iter_stmts(scope.body) if loop._production in ("For", "While")
               for stmt in iter_stmts(loop.body))


def check_same(program) -> bool:
    p = placer(program)
    found = p.applies(program.orch)
    assert found == applies_by_definition(p, program.orch)
    return found


def test_applies_as_defined_on_every_program_of_the_corpus():
    found = [check_same(program) for path in CORPUS for program in pass_inputs(path, NAME)]
    assert any(found) and not all(found)  # (both answers are compared)


@PROPERTY
@given(control_flow_programs())
def test_applies_as_defined_on_random_programs(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    for program in pass_inputs(path, NAME):
        check_same(program)


NEST_IN_A_SCOPE = '''import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, src: pl.Tensor[[16, 16], pl.FP32], k: pl.Scalar[pl.INT64], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            for a in pl.range(2):
                for b in pl.range(2):
                    for c in pl.range(2):
                        y = self.acc(x, a + b + c, y)
        return y
'''


def test_each_statement_in_loops_in_scopes_is_asked_once(tmp_path, monkeypatch):
    (path := tmp_path / "nest.py").write_text(NEST_IN_A_SCOPE)
    (program,) = pass_inputs(path, NAME)
    asked = []
    original = placing.PlaceLoopAllocationsBeforeScopes.may_allocate
    monkeypatch.setattr(placing.PlaceLoopAllocationsBeforeScopes, "may_allocate",
                        lambda self, stmt: (asked.append(stmt), original(self, stmt))[1])
    assert not placer(program).applies(program.orch)
    (scope,) = [s for s in program.orch.body if s._production == "Scope"]
    (outer,) = [s for s in scope.body if s._production == "For"]
    inside = [s for s in iter_stmts(outer.body) if s._production == "Task"]  # (only a task may allocate)
    assert [id(s) for s in asked] == [id(s) for s in inside]  # (asked once, not 3 times: one per loop around it)
