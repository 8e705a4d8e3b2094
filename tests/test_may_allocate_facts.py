"""``may_allocate`` (``place_scope_escaping_outputs``, and ``place_loop_allocations_before_scopes``
which inherits it) finds whether a task has an output the runtime allocates once for each
kernel, number of arguments and number of outputs (``allocating``): the answer with the facts
kept is the one found afresh for every task of every example, golden and found program, and of
random programs."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from conftest import CORPUS, fuzz_budget, pass_inputs
from program_gen import control_flow_programs

from nanopass.languages.statements import iter_stmts
from nanopass.passes import place_scope_escaping_outputs as escaping
from nanopass.passes.kernels import kernel_table, output_param_of_result
from nanopass.rewrite import PassContext

PROPERTY = settings(max_examples=fuzz_budget(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAME = "place_loop_allocations_before_scopes"


def by_definition(kernels, task) -> bool:
    kernel = kernels[task.kernel]
    return any((p := output_param_of_result(kernel, i)) is not None and p >= len(task.args) for i in range(len(task.outs)))


def answers(program) -> list[tuple[bool, bool]]:
    placer = escaping.PlaceScopeEscapingOutputs(PassContext())
    placer.kernels = kernel_table(program)
    return [(placer.may_allocate(stmt), by_definition(placer.kernels, stmt))
            for stmt in iter_stmts(program.orch.body) if stmt._production == "Task"]


def test_may_allocate_with_its_facts_kept_on_the_corpus():
    found = [pair for path in CORPUS for program in pass_inputs(path, NAME) for pair in answers(program)]
    assert all(kept == fresh for kept, fresh in found)
    assert {kept for kept, _ in found} == {True, False}  # (both answers are compared)


@PROPERTY
@given(control_flow_programs())
def test_may_allocate_with_its_facts_kept_on_random_programs(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    for program in pass_inputs(path, NAME):
        assert all(kept == fresh for kept, fresh in answers(program))


def test_a_statement_that_is_no_task_allocates_nothing():
    placer = escaping.PlaceScopeEscapingOutputs(PassContext())
    placer.kernels = {}

    class Let:
        _production = "Let"

    assert not placer.may_allocate(Let())
