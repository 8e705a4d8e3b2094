"""resolve_dep_edges builds its dummies and ifs with ``rewrite.trusted_maker`` and its dependency edges
(and their TaskId ``Var``s) with ``make_trusted``: on every example and golden program, the bench
shapes and random programs (manual scopes too), its output equals the output with every one of
them checked (``make``, and ``trusted_checked()``, where a wrong trust raises), and a checked
field still refuses a bad value.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import corpus_tests, outcome_running, pass_inputs, random_file, run_both_ways

from nanopass.errors import GrammarError
from nanopass.language import trusted_checked
from nanopass.passes import resolve_dep_edges
from nanopass.passes.resolve_dep_edges import ResolveDepEdges

A = ResolveDepEdges.target
MAKERS = [("_make_task", "Task"), ("_make_dummy", "Dummy"), ("_make_if", "If")]


def checked(cls):
    """The target class's own ``make``, with the span positional as the trusted makers take it."""
    return lambda *fields: cls.make(*fields[:-1], span=fields[-1])


outcome = outcome_running(ResolveDepEdges)


def all_checked(tree):
    with trusted_checked():
        return outcome(tree)


def check(path: Path) -> int:
    runs = 0
    for given in pass_inputs(path, "resolve_dep_edges"):
        fast = outcome(given)
        _, slow = run_both_ways(all_checked, given,
                                [(resolve_dep_edges, name, checked(A.nodes[production])) for name, production in MAKERS])
        assert fast == slow, path.name
        runs += 1
    return runs


test_programs, test_shapes = corpus_tests(check)


@pytest.mark.parametrize("manual", [False, True])
def test_random_programs(tmp_path, manual):
    assert sum(check(random_file(tmp_path, seed, manual=manual)) for seed in range(30, 60))


def test_a_checked_field_still_refuses_a_bad_value():
    binder = A.Binder.make("t", A.ScalarType.make(_task_id()))
    with pytest.raises(GrammarError, match="field 'deps'"):
        resolve_dep_edges._make_dummy(binder, (binder,), None, None)
    with pytest.raises(GrammarError, match="field 'then'"):
        resolve_dep_edges._make_if(A.Bool.make(True), (binder,), (), (), None)


def _task_id():
    from nanopass.languages.terms import DType

    return DType.TASK_ID
