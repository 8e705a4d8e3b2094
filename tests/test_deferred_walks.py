"""A body marked as passing a rule without a check (``mark_verified`` from a record hook, for a
pass that preserves the rule) has its walk deferred: made only when a check or a pass asks for it.

The deferral changes no verdict and no output: compiles with every walk made at once (the
deferral forced off) give the same C++ and the same refusals on every example, golden and random
program; a deferred walk answers the reuse questions (``unverified_stmts``, ``walk_of``) as a
made one does; and an output of a pass that no later pass walks is not walked at all.
"""

from __future__ import annotations

import pytest

from conftest import EXAMPLES_AND_GOLDEN, SHAPES, bench_file, cpp_of, random_file
from nanopass.languages import statements


class _EagerWalk(statements.Walk):
    """The deferral forced off: every walk is made when it is created."""

    __slots__ = ()

    def __init__(self, body, deferred: bool = False):
        super().__init__(body)


def _outcomes(paths) -> list:
    """The C++ of each file, or the refusal (its type and message)."""
    out = []
    for path in paths:
        try:
            out.append(cpp_of([path])[0])
        except Exception as error:  # noqa: BLE001 - a refusal is an outcome to compare
            out.append((type(error).__name__, str(error)))
    return out


def _both_ways(paths) -> tuple[list, list]:
    deferred = _outcomes(paths)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(statements, "Walk", _EagerWalk)
        eager = _outcomes(paths)
    return deferred, eager


def test_deferred_walks_change_no_output_of_the_examples_and_golden_programs():
    deferred, eager = _both_ways(EXAMPLES_AND_GOLDEN)
    assert deferred == eager
    assert any(isinstance(code, str) for code in deferred)


def test_deferred_walks_change_no_output_of_the_bench_shapes_and_random_programs(tmp_path):
    paths = [bench_file(tmp_path, shape, 24) for shape in SHAPES]
    paths += [random_file(tmp_path, seed, manual=seed % 3 == 0) for seed in range(40)]
    deferred, eager = _both_ways(paths)
    assert deferred == eager


def _loop_body(tmp_path):
    """The body of the nested bench shape after convert_to_ssa: loops (compound statements)."""
    from conftest import compiled_stages

    stages = compiled_stages(bench_file(tmp_path, "nested", 8))
    body = stages["convert_to_ssa"].tree.orch.body
    assert any(stmt._production == "For" for stmt in body)
    return body


def test_a_marked_body_is_walked_only_when_asked(tmp_path):
    body = _loop_body(tmp_path)
    with statements.reusing_walks():
        statements.mark_verified(body, "rule")
        marked = statements._reuse.verified["rule"]
        assert marked.body is body and marked.order is None  # deferred
        statements.mark_verified(body, "other rule")  # the same body: the same (deferred) walk
        assert statements._reuse.verified["other rule"] is marked
        assert statements.passed_last(body, "rule") and marked.order is None
        walk = statements.walk_of(body)
        assert walk is marked and walk.order == statements.Walk(body).order
        assert statements.unverified_stmts(body, "rule") == []


def test_a_deferred_walk_answers_which_statements_are_new(tmp_path):
    """A body sharing compound statements with a deferred marked one: only the rest is unverified
    (the deferred walk made to compare)."""
    body = _loop_body(tmp_path)
    loops = [stmt for stmt in body if stmt._production == "For"]
    changed = (body[-1],) + tuple(body)  # a statement more in front; the loops are the same objects
    with statements.reusing_walks():
        statements.mark_verified(body, "rule")
        assert statements._reuse.verified["rule"].order is None
        fresh = statements.unverified_stmts(changed, "rule")
        assert statements._reuse.verified["rule"].order is not None
        assert not any(stmt is loop for stmt in fresh for loop in loops)
        assert len(fresh) == len(changed) - len(loops)  # the statements outside the loops
    with statements.reusing_walks():  # eager: the same answer
        everything = statements.unverified_stmts(changed, "rule")
        assert len(everything) == len(statements.Walk(changed).order)


def test_the_scopes_shape_never_walks_the_output_of_remove_dead_values(tmp_path, monkeypatch):
    """remove_dead_values preserves the rules its output is marked with, and no later pass walks
    that output: its walk is never made (it was made for the mark before the deferral)."""
    from conftest import compiled_stages

    path = bench_file(tmp_path, "scopes", 16)
    made: list = []
    original = statements.Walk._make

    def recorded(walk):
        made.append(walk.body)
        return original(walk)

    monkeypatch.setattr(statements.Walk, "_make", recorded)
    stages = compiled_stages(path)
    before, after = stages["order_write_after_read"].tree, stages["remove_dead_values"].tree
    assert after.orch.body is not before.orch.body  # the pass made a new body
    assert not any(body is after.orch.body for body in made)
    assert any(body is before.orch.body for body in made)  # (its input's walk was made, by contrast)
