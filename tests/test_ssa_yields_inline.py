"""check_yields reads a loop that carries and whose body ends with its Yield (no compiler scope
to see through: the ssa and directed languages) inline. Each rule still rejects such a loop in
the ssa stage: a Yield before the last statement of a body of two or more, a last Yield of
another arity, an empty body where the loop carries, and a loop whose body ends otherwise; and a
good loop of each length passes.
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
