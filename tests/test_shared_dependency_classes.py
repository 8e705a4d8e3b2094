"""From scoped to hoisted the languages share their statement classes: resolved edges, Alloc and
Declare are in scoped's grammar already, kept out of each program until the pass that makes them
by invariants (``check_no_dep_edge``, ``check_no_alloc``, ``check_no_declare``), and
dep-annotated's ``check_capacity`` refuses an edge left unresolved. ``resolve_dep_edges`` returns
what has no dependency as it is. The grammar stays checked: a statement of a language before
directed (whose tasks are scoped's too) is refused at construction; an edge of the wrong stage,
by the verification."""

from __future__ import annotations

import pytest
from conftest import load_program
from test_dep_annotated_statement_kinds import replaced

from nanopass.api import run_pipeline
from nanopass.errors import GrammarError, InternalError, VerifyError
from nanopass.languages import BATCHED, CARRIED, DEP_ANNOTATED, DIRECTED, HOISTED, SCOPED, SSA, TID_BOUND
from nanopass.languages.dep_annotated import capacity
from nanopass.languages.statements import iter_stmts, reusing_walks
from nanopass.languages.terms import DepSource
from nanopass.passes.resolve_dep_edges import ResolveDepEdges
from nanopass.pipeline import PipelineError
from nanopass.tools.bench import source_of


def stages_of(tmp_path, shape: str):
    path = tmp_path / f"{shape}.py"
    path.write_text(source_of(shape, 4))
    return run_pipeline(load_program(path))


def an_edge(language):
    return language.DepEdge(language.Var("t"), None, DepSource.fresh, False, True, 0)


def test_the_languages_from_tid_bound_to_hoisted_share_every_node_class():
    assert DEP_ANNOTATED.nodes == TID_BOUND.nodes == BATCHED.nodes == HOISTED.nodes
    for production in ("Task", "Dummy", "HostFence", "Alloc", "Declare", "DepEdge"):
        assert SCOPED.nodes[production] is HOISTED.nodes[production]
    assert DIRECTED.nodes["Task"] is SCOPED.nodes["Task"]  # (directed's Dep has DepEdge too)
    assert SSA.nodes["Task"] is not DIRECTED.nodes["Task"]


def test_an_earlier_languages_statement_is_refused_at_construction(tmp_path):
    stages = stages_of(tmp_path, "nested")
    directed_task = next(s for s in iter_stmts(stages["decide_view_tracking"].tree.orch.body)  # (ssa's)
                         if s._production == "Task")
    assert type(directed_task) is SSA.Task
    loop = next(s for s in iter_stmts(stages["resolve_dep_edges"].tree.orch.body) if s._production == "For")
    for language in (CARRIED, DEP_ANNOTATED, HOISTED):
        with pytest.raises(GrammarError, match="field 'body'"):
            language.nodes["For"](loop.var, loop.start, loop.stop, loop.step, loop.kind, loop.iters, (directed_task,),
                                  loop.results)


@pytest.mark.parametrize("stage", ["materialize_runtime_scopes", "classify_iter_arg_carry", "assign_kernel_ids",
                                   "bind_task_ids"])
def test_a_resolved_edge_before_resolve_dep_edges_is_refused(tmp_path, stage):
    stages = stages_of(tmp_path, "scopes")
    tree, language = stages[stage].tree, stages[stage].language
    with_deps = {s._production: s for s in reversed(list(iter_stmts(tree.orch.body))) if s._production in ("Task", "Dummy")}
    assert "Task" in with_deps
    for node in with_deps.values():
        bad = replaced(tree, node, [node.replace(deps=(*node.deps, an_edge(language)))])
        with reusing_walks():
            language.verify(tree)  # (the good tree first: the bad one's unchanged statements are skipped)
            with pytest.raises(VerifyError, match="resolved dependency edge"):
                language.verify(bad)


def test_an_unresolved_dependency_after_resolve_dep_edges_is_refused(tmp_path):
    stages = stages_of(tmp_path, "scopes")
    before, after = stages["bind_task_ids"].tree, stages["resolve_dep_edges"].tree
    unresolved = next(s for s in iter_stmts(before.orch.body) if s._production == "Task" and s.deps)
    task = next(s for s in iter_stmts(after.orch.body) if s._production == "Task" and s.deps)
    for language in (DEP_ANNOTATED, BATCHED, HOISTED):
        with reusing_walks():
            language.verify(after)
            with pytest.raises(VerifyError, match=r"unresolved dependency \(DepVar\)"):
                language.verify(replaced(after, task, [task.replace(deps=unresolved.deps)]))


def test_a_pass_that_leaves_an_edge_unresolved_is_caught(tmp_path, monkeypatch):
    path = tmp_path / "scopes.py"
    path.write_text(source_of("scopes", 4))
    monkeypatch.setattr(ResolveDepEdges, "edges", lambda self, deps, owner: list(deps))  # (broken on purpose)
    with pytest.raises((PipelineError, InternalError), match="unresolved dependency"):
        run_pipeline(load_program(path))


def test_what_has_no_dependency_is_returned_as_it_is(tmp_path):
    nested = stages_of(tmp_path, "nested")  # (no task has a dependency)
    assert nested["resolve_dep_edges"].tree is nested["bind_task_ids"].tree
    stages = stages_of(tmp_path, "scopes")  # (every task and dummy has one; the lets none)
    before, after = stages["bind_task_ids"].tree, stages["resolve_dep_edges"].tree
    lets = [s for s in iter_stmts(before.orch.body) if s._production == "Let"]
    assert lets and all(any(s is let for s in iter_stmts(after.orch.body)) for let in lets)
    for stmt in iter_stmts(after.orch.body):
        if stmt._production in ("Task", "Dummy"):
            assert stmt.deps and all(edge._production == "DepEdge" for edge in stmt.deps)


def test_a_dependency_array_has_one_slot_per_edge_and_n_per_whole_array_of_n():
    edge = an_edge(DEP_ANNOTATED)
    assert capacity(()) == 0
    assert capacity((edge,)) == 1
    assert capacity((edge, edge.replace(size=4), edge.replace(size=1))) == 6
