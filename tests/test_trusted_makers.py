"""The middle passes build the statements they rebuild with ``rewrite.trusted_maker``: the fields a
pass passes on from its input node (the same field of the same production, of a kind the grammar
proves the target has) are set unchecked, the others checked as ``make`` checks them; or with
``make_trusted`` where the pass proves every field. The output is the one the checked
constructors give, on every example and on random control-flow programs;
a field the grammar does not prove cannot be trusted, and a checked field still refuses a bad
value."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import EXAMPLES, fuzz_budget, load_program
from program_gen import control_flow_programs

from nanopass.api import run_pipeline
from nanopass.errors import GrammarError
from nanopass.language import trusted_checked
from nanopass.languages.terms import DType
from nanopass.passes import (
    classify_iter_arg_carry,
    hoist_scope_escapes,
    materialize_runtime_scopes,
    remove_dead_values,
    resolve_dep_edges,
)
from nanopass.passes.pipeline import PIPELINE
from nanopass.rewrite import PassContext, trusted_maker

PROPERTY = settings(max_examples=fuzz_budget(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])

MAKERS = {  # module -> its trusted makers: (name, production)
    remove_dead_values: [("_make_for", "For"), ("_make_while", "While"), ("_make_if", "If")],
    materialize_runtime_scopes: [("_make_while", "While"), ("_make_scope", "Scope")],
    classify_iter_arg_carry: [("_make_for", "For"), ("_make_while", "While"), ("_make_iter_arg", "IterArg")],
    resolve_dep_edges: [("_make_task", "Task")],
    hoist_scope_escapes: [("_make_scope", "Scope")],
}
PASSES = {module: cls for module, cls in [
    (remove_dead_values, remove_dead_values.RemoveDeadValues),
    (materialize_runtime_scopes, materialize_runtime_scopes.MaterializeRuntimeScopes),
    (classify_iter_arg_carry, classify_iter_arg_carry.ClassifyIterArgCarry),
    (resolve_dep_edges, resolve_dep_edges.ResolveDepEdges),
    (hoist_scope_escapes, hoist_scope_escapes.HoistScopeEscapes),
]}


def checked(cls):
    """The target class's own ``make``, with the span positional as the trusted makers take it."""
    return lambda *fields: cls.make(*fields[:-1], span=fields[-1])


def both_ways(program) -> None:
    stages = run_pipeline(program)
    names = PIPELINE.names()
    for module, pass_cls in PASSES.items():
        source = stages[names.index(pass_cls.name)].tree  # the pass's input
        fast = pass_cls(PassContext()).run(source)
        # the checked run: the trusted makers replaced by ``make``, and every ``make_trusted`` the
        # passes call inline checked too (``trusted_checked``)
        with pytest.MonkeyPatch.context() as patch, trusted_checked():
            for name, production in MAKERS[module]:
                patch.setattr(module, name, checked(pass_cls.target.nodes[production]))
            slow = pass_cls(PassContext()).run(source)
        assert fast == slow, pass_cls.name


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")), ids=lambda p: p.stem)
def test_examples(path: Path):
    both_ways(load_program(path))


@PROPERTY
@given(control_flow_programs())
def test_random_programs(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    both_ways(load_program(path))


def test_a_field_the_grammar_does_not_prove_is_not_trusted():
    # directed's Scope has no origin
    with pytest.raises(TypeError, match="field origin of Scope is not proved"):
        trusted_maker(materialize_runtime_scopes.MaterializeRuntimeScopes, "Scope", ("body",))
    # scoped's IterArg has no plan: carried's For holds another IterArg
    with pytest.raises(TypeError, match="field iters of For"):
        trusted_maker(classify_iter_arg_carry.ClassifyIterArgCarry, "For", ("body",))


def test_a_checked_field_still_refuses_a_bad_value():
    A = resolve_dep_edges.ResolveDepEdges.target
    binder = A.Binder.make("t", A.ScalarType.make(DType.TASK_ID))  # (no dependency edge, no statement)
    with pytest.raises(GrammarError, match="field 'deps'"):
        resolve_dep_edges._make_task((), None, "k", (), (), False, (binder,), None, None)
    C = classify_iter_arg_carry.ClassifyIterArgCarry.target
    with pytest.raises(GrammarError, match="field 'body'"):
        classify_iter_arg_carry._make_while((), C.Bool.make(True), (binder,), (), None)
