"""``hoist_scope_escapes`` hands its input back converted, without visiting it, when no user or
manual scope has anything to move or declare (``nothing_to_hoist``: no ``if``, allocation or
``Declare`` directly in such a scope, no value defined directly in one read after it). With the
shortcut forced off the pass must give the same output (or refuse the program the same way) on
every example and golden program, the bench shapes and random programs (manual scopes too); the
shortcut must be taken on the scopes shape and not where something moves. Its answer must be the
one its docstring defines, each name's reads looked up by its root (``root_reads``: the reads of
an alias folded into its root's), where it looks up a name that is no alias nor aliased by its
own reads.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import GOLDEN, bench_file, corpus_tests, outcome_running, pass_inputs, random_file, run_both_ways

from nanopass.passes.hoist_scope_escapes import MANUAL, SCOPE, USER, HoistScopeEscapes
from nanopass.languages.statements import walk_of

SEEDS = range(40)


outcome = outcome_running(HoistScopeEscapes)  # the output, or the message of the error it refuses a program with


def check(path: Path) -> int:
    """Both ways on each program of ``path``; how many took the shortcut."""
    taken = 0
    for given in pass_inputs(path, "hoist_scope_escapes"):
        fast, full = run_both_ways(outcome, given, [(HoistScopeEscapes, "nothing_to_hoist", lambda self, body: False)])
        assert fast == full, path.name
        if not isinstance(fast, tuple):
            taken += _shortcut_taken(given)
    return taken


def nothing_to_hoist_by_definition(self, body) -> bool:
    """``nothing_to_hoist`` as its docstring defines it, every name looked up by its root."""
    last_read = self.root_reads()
    for scope in walk_of(body).compound:
        if type(scope) is not SCOPE or not (scope.origin is USER or scope.mode is MANUAL):
            continue
        end = self.scope_end[id(scope)]
        for stmt in scope.body:
            if stmt._production in ("If", "Alloc", "Declare"):
                return False
            for binder in self.declared_by(stmt):
                if last_read.get(self.roots.get(binder.name, binder.name), -1) > end:
                    return False
    return True


def _shortcut_taken(given) -> int:
    calls = []
    original = HoistScopeEscapes.nothing_to_hoist

    def spy(self, body):
        calls.append(original(self, body))
        assert calls[-1] == nothing_to_hoist_by_definition(self, body)
        return calls[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(HoistScopeEscapes, "nothing_to_hoist", spy)
        outcome(given)
    return int(any(calls))


test_programs, test_shapes = corpus_tests(check)


@pytest.mark.parametrize("manual", [False, True])
def test_random_programs(tmp_path, manual):
    for seed in SEEDS:
        check(random_file(tmp_path, seed, manual=manual))


def test_the_shortcut_is_taken_on_scopes_and_not_where_something_moves(tmp_path):
    assert check(bench_file(tmp_path, "scopes", 24)) == 1
    (given,) = pass_inputs(GOLDEN / "array_carry_across_scope.py", "hoist_scope_escapes")
    assert _shortcut_taken(given) == 0
    assert outcome(given) is not given  # (it hoists: the shortcut would have been wrong)


def test_a_wrong_shortcut_changes_the_output():
    # (so the comparisons above can fail: the input handed back where something moves)
    (given,) = pass_inputs(GOLDEN / "array_carry_across_scope.py", "hoist_scope_escapes")
    fast, wrong = run_both_ways(outcome, given, [(HoistScopeEscapes, "nothing_to_hoist", lambda self, body: True)])
    assert fast != wrong
