"""The scope placement's record hook (``check_scope_placement.record``): the output of a pass
that declares it preserves the placement is marked as passing the quick per-statement test only
when its input did, and a pass that breaks the placement while declaring it is caught by a
compile that rechecks the declarations (``recheck_preserved``)."""

from __future__ import annotations

import pytest

from nanopass.api import surface_of
from nanopass.errors import VerifyError
from nanopass.languages import SCOPED
from nanopass.languages.scoped import check_scope_placement
from nanopass.languages.statements import passed_last, reusing_walks
from nanopass.languages.terms import ScopeMode
from nanopass.passes.resolve_dep_edges import ResolveDepEdges
from nanopass.passes.pipeline import PIPELINE
from nanopass.pipeline import PipelineError
from nanopass.rewrite import PassContext

QUICK = (check_scope_placement, True)  # (the key of the quick test's marks, auto_scope on)
GENERAL = (check_scope_placement, "general", True)  # (the general walk's, when it asked nothing of allocations)


def _scoped(example, stem: str):
    stages = PIPELINE.run(surface_of(example(stem)), PassContext(), stop_after="materialize_runtime_scopes")
    program = stages[-1].tree
    assert SCOPED.is_program(program)
    return program


def _copy(program):
    """The same program, its function body a new tuple (a pass's output that shares nothing)."""
    func = program.orch
    copy = tuple(list(func.body))
    assert copy is not func.body
    return program.replace(orch=func.replace(body=copy))


def test_the_record_marks_an_output_by_the_route_its_input_passed(example):
    quick = _scoped(example, "loop_scalar")  # every loop body and branch one AUTO scope
    general = _scoped(example, "manual_phases")  # a manual scope: the general walk
    assert any(s._production == "Scope" and s.mode is ScopeMode.manual for s in general.orch.body[0].body)
    with reusing_walks():
        check_scope_placement(quick)
        output = _copy(quick)
        check_scope_placement.record(output)
        assert passed_last(output.orch.body, QUICK)  # the next check skips its statements
        assert not passed_last(output.orch.body, GENERAL)
        check_scope_placement(general)
        output = _copy(general)
        check_scope_placement.record(output)
        assert not passed_last(output.orch.body, QUICK)  # (the general walk's verdicts are not the quick test's)
        assert passed_last(output.orch.body, GENERAL)  # (it asked nothing of allocations: the body decides)
        check_scope_placement(_copy(quick))  # a quick check again: marks again, the general walk's forgotten
        output = _copy(quick)
        check_scope_placement.record(output)
        assert passed_last(output.orch.body, QUICK) and not passed_last(output.orch.body, GENERAL)


def test_the_record_marks_nothing_after_a_general_walk_that_asked_which_allocations_a_body_yields(
    example, monkeypatch
):
    from nanopass.languages import scoped, statements

    general = _scoped(example, "manual_phases")
    walk = scoped._check_bodies
    with reusing_walks():
        check_scope_placement(_copy(general))  # (asking nothing: the body is marked)
        assert statements._reuse.verified.get(GENERAL) is not None
        monkeypatch.setattr(scoped, "_check_bodies", lambda body, require_scopes, program=None: walk(body, require_scopes) or True)
        check_scope_placement(general)  # (as if it asked)
        output = _copy(general)
        check_scope_placement.record(output)
        assert not passed_last(output.orch.body, QUICK) and not passed_last(output.orch.body, GENERAL)


def test_the_pipeline_records_the_placement_of_the_passes_that_preserve_it(monkeypatch, tmp_path):
    """On a bench shape with loops and creates, the outputs of resolve_dep_edges and
    batch_tensor_creates are recorded, not checked, and marked (classify_iter_arg_carry's is
    checked: it reflects the placement, which its input is not checked for)."""
    from nanopass.loader import load_programs
    from conftest import bench_file

    record = check_scope_placement.record
    recorded: list[int] = []  # the recorded trees' ids (a node's class, shared by languages, does not name its stage)

    def counting(program):
        record(program)
        assert passed_last(program.orch.body, QUICK)
        recorded.append(id(program))

    monkeypatch.setattr(check_scope_placement, "record", counting)
    path = bench_file(tmp_path, "mixed", 30)
    with reusing_walks():
        stages = PIPELINE.run(surface_of(load_programs(str(path))[0]), PassContext(), input_name="parse_dsl")
        made = {stage.name: id(stage.tree) for stage in stages}
        # (an output that is its input is known to meet what its input met: neither checked nor recorded)
        unchanged = {after.name for before, after in zip(stages, stages[1:]) if after.tree is before.tree}
    passes = ["resolve_dep_edges", "batch_tensor_creates"]
    assert [name for name in passes if made[name] in recorded or name in unchanged] == passes


@pytest.fixture
def unscoped_loop_body(monkeypatch):
    """``resolve_dep_edges`` (which declares it preserves the scope placement) made to
    unwrap its output's first loop body from its AUTO scope: a declaration its output breaks."""
    run = ResolveDepEdges.run

    def unwrap(self, program):
        result = run(self, program)
        func = result.orch
        (scope,) = func.body
        loop_at = next(i for i, s in enumerate(scope.body) if s._production == "For")
        loop = scope.body[loop_at]
        (inner,) = loop.body
        stmts = scope.body[:loop_at] + (loop.replace(body=inner.body),) + scope.body[loop_at + 1:]
        return result.replace(orch=func.replace(body=(scope.replace(body=stmts),)))

    monkeypatch.setattr(ResolveDepEdges, "run", unwrap)


def test_a_pass_that_breaks_the_placement_it_declares_is_caught_with_recheck(unscoped_loop_body, example):
    tree = surface_of(example("loop_scalar"))
    with reusing_walks():  # trusted: the break is not found in the pass that made it
        try:
            PIPELINE.run(tree, PassContext(), input_name="parse_dsl")
        except PipelineError as error:  # (a later pass that checks the placement may find it)
            assert error.error.pass_name != "resolve_dep_edges"
    with reusing_walks(), pytest.raises(PipelineError) as info:
        PIPELINE.run(tree, PassContext(), input_name="parse_dsl", recheck_preserved=True)
    assert isinstance(info.value.error, VerifyError) and info.value.error.pass_name == "resolve_dep_edges"
    assert "must be one runtime scope" in str(info.value.error)
