"""directed's grammar has the resolved edge (``DepEdge``), so directed and scoped share the classes
of the statements with dependencies and materialize_runtime_scopes returns each of them as it
is; scoped's ``check_no_dep_edge`` still refuses a resolved edge in its output."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES_AND_GOLDEN, SHAPES, bench_file, load_program

from nanopass.api import surface_of
from nanopass.errors import VerifyError
from nanopass.languages import DIRECTED, SCOPED
from nanopass.languages.statements import iter_stmts, reusing_walks
from nanopass.languages.terms import DepSource
from nanopass.passes.pipeline import PIPELINE
from nanopass.pipeline import PipelineError
from nanopass.rewrite import PassContext

WITH_DEPS = ("Task", "Dummy", "HostFence")


def test_directed_and_scoped_share_the_statements_with_dependencies():
    for production in WITH_DEPS + ("DepEdge", "CellDep", "DepVar"):
        assert DIRECTED.nodes[production] is SCOPED.nodes[production], production


def _tasks(tree) -> list:
    return [s for s in iter_stmts(tree.orch.body) if s._production in WITH_DEPS]


def _check_kept(program) -> int:
    with reusing_walks():
        stages = PIPELINE.run(surface_of(program), PassContext(), input_name="parse_dsl",
                              stop_after="materialize_runtime_scopes")
    before, after = _tasks(stages[-2].tree), _tasks(stages[-1].tree)
    assert len(before) == len(after)
    assert all(a is b for a, b in zip(before, after))  # (the same objects, in the same order)
    return len(after)


@pytest.mark.parametrize("source", EXAMPLES_AND_GOLDEN, ids=[p.stem for p in EXAMPLES_AND_GOLDEN])
def test_materialize_returns_the_tasks_as_they_are(source):
    _check_kept(load_program(source))


@pytest.mark.parametrize("shape", SHAPES)
def test_materialize_returns_the_tasks_of_the_shapes_as_they_are(shape, tmp_path):
    assert _check_kept(load_program(bench_file(tmp_path, shape, 30)))


def test_a_resolved_edge_in_a_directed_program_is_refused_after_materialize(example, monkeypatch):
    from nanopass.passes.remove_dead_values import RemoveDeadValues

    run = RemoveDeadValues.run

    def with_edge(self, program):  # (the pass before materialize gives its first task a resolved edge)
        result = run(self, program)
        task = next(s for s in iter_stmts(result.orch.body) if s._production == "Task")
        edge = DIRECTED.DepEdge(DIRECTED.Var(task.outs[0].name), None, DepSource.fresh, False, True, 0)
        new = task.replace(deps=task.deps + (edge,))
        func = result.orch
        body = tuple(new if s is task else s for s in func.body)
        assert body != func.body  # (the example's first task is at the top of its body)
        return result.replace(orch=func.replace(body=body))

    monkeypatch.setattr(RemoveDeadValues, "run", with_edge)
    with pytest.raises(PipelineError) as info:
        with reusing_walks():
            PIPELINE.run(surface_of(example("basic")), PassContext(), input_name="parse_dsl")
    assert isinstance(info.value.error, VerifyError) and "DepEdge" in str(info.value.error)
    assert info.value.error.pass_name == "materialize_runtime_scopes"
