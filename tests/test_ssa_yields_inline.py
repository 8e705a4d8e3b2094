"""check_yields reads a loop that carries and whose body ends with its Yield (no compiler scope
to see through: the ssa and directed languages) inline, and so an if's branch that merges and
ends with its Yield. Each rule still rejects such a loop (such a branch, on either side) in the
ssa stage: a Yield before the last statement of a body of two or more, a last Yield of another
arity, an empty body where the loop (the if) carries, and a body that ends otherwise; and a good
loop (branch) of each length passes.
"""

from __future__ import annotations

import pytest

from test_languages import _error_after_good, _stage, _with_stmt_replaced

STRAY = "a Yield outside the end of a loop or branch body"
ARITY = "body must end with a Yield of 1 value(s)"


def _innermost_ssa_loop(tree):
    from nanopass.languages.statements import iter_stmts

    return next(
        s for s in iter_stmts(tree.orch.body)
        if s._production == "For" and s.iters and not any(t._production == "For" for t in s.body)
    )


def _cases(loop):
    body = loop.body  # [tasks..., Yield]
    yld, task = body[-1], body[0]
    return {
        "yield first of two": (loop.replace(body=(yld, yld)), STRAY),
        "yield in the middle of three": (loop.replace(body=(task, yld, yld)), STRAY),
        "a last yield of two values, two statements": (loop.replace(body=(task, yld.replace(values=yld.values * 2))), ARITY),
        "a last yield of two values alone": (loop.replace(body=(yld.replace(values=yld.values * 2),)), ARITY),
        "no yield at the end": (loop.replace(body=(task,)), ARITY),
        "an empty body": (loop.replace(body=()), ARITY),
    }


@pytest.mark.parametrize("case", [
    "yield first of two", "yield in the middle of three", "a last yield of two values, two statements",
    "a last yield of two values alone", "no yield at the end", "an empty body",
])
def test_each_yield_rule_rejects_a_carrying_loop_of_the_ssa_stage(tmp_path, case):
    stage = _stage(tmp_path, "convert_to_ssa")
    loop = _innermost_ssa_loop(stage.tree)
    bad, message = _cases(loop)[case]
    assert message in _error_after_good(stage.language, stage.tree, _with_stmt_replaced(stage.tree, loop, bad))


@pytest.mark.parametrize("length", [1, 2, 3])
def test_a_carrying_loop_ending_with_its_yield_passes(tmp_path, length):
    from nanopass.languages.statements import reusing_walks

    stage = _stage(tmp_path, "convert_to_ssa")
    loop = _innermost_ssa_loop(stage.tree)
    good = _with_stmt_replaced(stage.tree, loop, loop.replace(body=(*loop.body[: length - 1], loop.body[-1])))
    with reusing_walks():
        stage.language.verify(stage.tree)
        stage.language.verify(good)
    stage.language.verify(good)


def _first_ssa_if(tree):
    from nanopass.languages.statements import iter_stmts

    return next(s for s in iter_stmts(tree.orch.body) if s._production == "If" and s.results)


@pytest.mark.parametrize("side", ["then", "orelse"])
@pytest.mark.parametrize("case", [
    "yield first of two", "yield in the middle of three", "a last yield of two values, two statements",
    "a last yield of two values alone", "no yield at the end", "an empty body",
])
def test_each_yield_rule_rejects_a_merging_branch_of_the_ssa_stage(tmp_path, case, side):
    stage = _stage(tmp_path, "convert_to_ssa", shape="branches")
    branch = _first_ssa_if(stage.tree)
    body = getattr(branch, side)  # [task, Yield]
    yld, task = body[-1], body[0]
    bodies = {
        "yield first of two": ((yld, yld), STRAY),
        "yield in the middle of three": ((task, yld, yld), STRAY),
        "a last yield of two values, two statements": ((task, yld.replace(values=yld.values * 2)), ARITY),
        "a last yield of two values alone": ((yld.replace(values=yld.values * 2),), ARITY),
        "no yield at the end": ((task,), ARITY),
        "an empty body": ((), ARITY),
    }
    new_body, message = bodies[case]
    bad = branch.replace(**{side: new_body})
    assert message in _error_after_good(stage.language, stage.tree, _with_stmt_replaced(stage.tree, branch, bad))


@pytest.mark.parametrize("length", [1, 2])  # (a branch of the shape holds one task)
def test_a_merging_branch_ending_with_its_yield_passes(tmp_path, length):
    from nanopass.languages.statements import reusing_walks

    stage = _stage(tmp_path, "convert_to_ssa", shape="branches")
    branch = _first_ssa_if(stage.tree)
    then = branch.then
    good = _with_stmt_replaced(stage.tree, branch, branch.replace(then=(*then[: length - 1], then[-1])))
    with reusing_walks():
        stage.language.verify(stage.tree)
        stage.language.verify(good)
    stage.language.verify(good)
