"""``materialize_runtime_scopes`` builds the AUTO scopes it wraps bodies in with ``make_trusted``:
the mode and origin are members of their terminals, the body the statements the pass made of a
checked body. Inside ``trusted_checked()`` ``make_trusted`` is the checked ``make``: the pass must
give the same output both ways (and raise nothing when checked) on every example and golden
program, the bench shapes and random programs (manual scopes too).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import bench_file, corpus_tests, outcome_running, pass_inputs, random_file

from nanopass.errors import GrammarError
from nanopass.language import trusted_checked
from nanopass.languages import SCOPED
from nanopass.languages.terms import ScopeMode, ScopeOrigin
from nanopass.passes.materialize_runtime_scopes import MaterializeRuntimeScopes

SEEDS = range(24)


def check(path: Path) -> None:
    run = outcome_running(MaterializeRuntimeScopes)
    for given in pass_inputs(path, "materialize_runtime_scopes"):
        trusted = run(given)
        with trusted_checked():
            checked = run(given)
        assert trusted == checked


test_programs, test_shapes = corpus_tests(check)


@pytest.mark.parametrize("manual", [False, True])
def test_random_programs(tmp_path, manual):
    for seed in SEEDS:
        check(random_file(tmp_path, seed, manual=manual))


def test_the_checked_constructor_refuses_what_the_trusted_one_takes():
    # (so the comparison above can fail: a body that is no statement passes make_trusted, not the checked make)
    wrong = SCOPED.Scope.make_trusted(ScopeMode.auto, ScopeOrigin.compiler, ["not a statement"])
    assert wrong.body == ("not a statement",)
    with trusted_checked(), pytest.raises(GrammarError):
        SCOPED.Scope.make_trusted(ScopeMode.auto, ScopeOrigin.compiler, ["not a statement"])


def test_the_nested_shape_wraps_its_loop_bodies(tmp_path):
    (given,) = pass_inputs(bench_file(tmp_path, "nested", 8), "materialize_runtime_scopes")
    out = outcome_running(MaterializeRuntimeScopes)(given)
    loops = [s for s in _statements(out.orch.body) if s._production == "For"]
    assert loops and all(len(loop.body) == 1 and loop.body[0].origin is ScopeOrigin.compiler for loop in loops)


def _statements(body):
    from nanopass.languages.statements import iter_stmts

    return list(iter_stmts(body))
