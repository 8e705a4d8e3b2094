"""Constructions of ``materialize_runtime_scopes`` and ``classify_iter_arg_carry`` made with
``make_trusted``: the AUTO scopes the first wraps bodies in (the mode and origin members of their
terminals, the body the statements the pass made of a checked body) and the second's buffer
groups (a root and its aliases are names of the function's params and binders, symbols checked
where those were made). Inside ``trusted_checked()`` ``make_trusted`` is the checked ``make``:
each pass gives the same output both ways (``conftest.trusted_both_ways``) on every example and
golden program, the bench shapes and random programs (manual scopes too).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import bench_file, corpus_tests, outcome_running, pass_inputs, random_file, trusted_both_ways

from nanopass.errors import GrammarError
from nanopass.language import trusted_checked
from nanopass.languages import CARRIED, SCOPED
from nanopass.languages.statements import iter_stmts
from nanopass.languages.terms import ScopeMode, ScopeOrigin
from nanopass.passes.classify_iter_arg_carry import ClassifyIterArgCarry
from nanopass.passes.materialize_runtime_scopes import MaterializeRuntimeScopes

SEEDS = range(24)


def check(path: Path) -> None:
    for pass_cls in (MaterializeRuntimeScopes, ClassifyIterArgCarry):
        trusted_both_ways(pass_cls, path)


test_programs, test_shapes = corpus_tests(check)


@pytest.mark.parametrize("manual", [False, True])
def test_random_programs(tmp_path, manual):
    for seed in SEEDS:
        check(random_file(tmp_path, seed, manual=manual))


WRONG = [  # (so the comparisons above can fail: a value make_trusted takes and the checked make refuses)
    (lambda: SCOPED.Scope.make_trusted(ScopeMode.auto, ScopeOrigin.compiler, ["not a statement"])),
    (lambda: CARRIED.BufferGroup.make_trusted("a b", ["c"])),
]


@pytest.mark.parametrize("make", WRONG, ids=["scope body", "group root"])
def test_the_checked_constructor_refuses_what_the_trusted_one_takes(make):
    assert make() is not None
    with trusted_checked(), pytest.raises(GrammarError):
        make()


def test_the_nested_shape_has_wrapped_bodies_and_buffer_groups(tmp_path):
    path = bench_file(tmp_path, "nested", 8)
    (given,) = pass_inputs(path, "materialize_runtime_scopes")
    scoped = outcome_running(MaterializeRuntimeScopes)(given)
    loops = [s for s in iter_stmts(scoped.orch.body) if s._production == "For"]
    assert loops and all(len(loop.body) == 1 and loop.body[0].origin is ScopeOrigin.compiler for loop in loops)
    (given,) = pass_inputs(path, "classify_iter_arg_carry")
    groups = outcome_running(ClassifyIterArgCarry)(given).orch.buffer_groups
    assert groups and all(type(g.aliases) is tuple and g.aliases for g in groups)
