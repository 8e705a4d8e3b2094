"""materialize_runtime_scopes declares it preserves the yields (its output is not checked for
them again): a scope an earlier pass placed (``CompilerScope``), which it turns into a
``Scope``, is checked for stray Yields on its input as a ``Scope`` is on its output."""

from __future__ import annotations

import pytest

from nanopass.api import surface_of
from nanopass.errors import VerifyError
from nanopass.languages import DIRECTED
from nanopass.languages.ssa import check_yields
from nanopass.languages.terms import ScopeMode
from nanopass.passes.materialize_runtime_scopes import MaterializeRuntimeScopes
from nanopass.passes.pipeline import PIPELINE
from nanopass.rewrite import PassContext


def test_a_stray_yield_in_a_compiler_scope_is_refused_before_materialize(example):
    stages = PIPELINE.run(surface_of(example("basic")), PassContext(), stop_after="remove_dead_values")
    program = stages[-1].tree
    assert DIRECTED.is_program(program)
    func = program.orch
    first = func.body[0]
    placed = DIRECTED.CompilerScope(ScopeMode.auto, (DIRECTED.Yield(()), first))
    stray = program.replace(orch=func.replace(body=(placed,) + func.body[1:]))
    with pytest.raises(VerifyError, match="Yield outside"):
        check_yields(stray)
    # (the scope materialize makes of it is refused the same way)
    with pytest.raises(VerifyError, match="Yield outside"):
        check_yields(MaterializeRuntimeScopes(PassContext()).run(stray))
    assert check_yields in MaterializeRuntimeScopes.preserves
