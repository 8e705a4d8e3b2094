"""``for (a, b) in pl.while_(init_values=(a0, b0)):`` with ``pl.cond(c)`` as the body's first
statement and ``a2, b2 = pl.yield_(...)`` as its last: a loop that runs while ``c``, read on the
carries at the top of each iteration, holds (reference-surface.md section 14). Read into a
``While`` statement; ``pl.cond`` anywhere else is a located error.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.languages import surface as S

from ..names import dsl_call
from ..registry import ARGUMENT, EXPRESSION, ITERATOR, STATEMENT, TARGETS, VALUE, dsl_op
from ..type_reader import BOOL_T, type_text
from .loops import is_yield_assign, iter_args, loop_yield, share_results, yielded_arrays

if TYPE_CHECKING:
    from ..context import FunctionContext

L = S.LANGUAGE

SHAPE = "for (i, acc) in pl.while_(init_values=(0, acc0)): pl.cond(i < n); ...; i2, acc2 = pl.yield_(i + 1, acc)"
COND_MISPLACED = "pl.cond(...) must be the first statement of a pl.while_ loop's body"
_COND_HINT = "the condition of a while loop: " + SHAPE


@dsl_op("while_", ITERATOR, misplaced={
    VALUE: "pl.while_(...) is a loop's iterator: " + SHAPE,
    STATEMENT: "pl.while_(...) is a loop's iterator: " + SHAPE,
    EXPRESSION: "pl.while_(...) is a loop's iterator: " + SHAPE,
})
def while_(cx: FunctionContext, stmt: ast.For, call: ast.Call) -> list[Any]:
    if call.args:
        raise cx.error("pl.while_ takes no positional argument: its carries are init_values=(...)", call.args[0],
                       hint=SHAPE)
    init_node = None
    for kw in call.keywords:
        if kw.arg == "init_values":
            init_node = kw.value
        elif kw.arg != "attrs":
            raise cx.error(f"pl.while_ has no keyword argument '{kw.arg}'", kw.value)
    if init_node is None:
        raise cx.error("pl.while_ needs init_values=(...): the loop's carries, which its pl.cond reads", call,
                       hint=SHAPE)
    if not isinstance(init_node, (ast.Tuple, ast.List)) or not init_node.elts:
        raise cx.error("init_values must be a non-empty tuple or list", init_node, hint=SHAPE)
    target = stmt.target
    names = list(target.elts) if isinstance(target, (ast.Tuple, ast.List)) else [target]
    for n in names:
        if not isinstance(n, ast.Name):
            raise cx.error("the carries of a pl.while_ loop must be plain names", n, hint=SHAPE)
    if len(names) != len(init_node.elts):
        raise cx.error(f"{len(names)} loop carries but {len(init_node.elts)} init values", init_node)
    body_nodes = stmt.body
    first = body_nodes[0]
    if not _is_cond(first):
        raise cx.error("a pl.while_ loop's body must begin with pl.cond(condition)", first, hint=SHAPE)
    last = body_nodes[-1]
    if len(body_nodes) < 2 or not is_yield_assign(last):
        raise cx.error("a pl.while_ loop must end with an assignment from pl.yield_(...)", last, hint=SHAPE)
    cx.enter(stmt)
    cx.push()
    try:
        iters = iter_args(cx, names, init_node.elts)
        arrays_before = cx.arrays.begin_loop(stmt.lineno)  # (after the init values: read once, before the loop)
        cond_call = first.value
        if len(cond_call.args) != 1 or cond_call.keywords:
            raise cx.error("pl.cond takes one argument: the loop's condition", cond_call)
        cond, ty = cx.expr(cond_call.args[0])
        if ty != BOOL_T:
            raise cx.error(f"a pl.cond condition must be a comparison or another bool expression, got {type_text(ty)}",
                           cond_call.args[0], hint="write n != 0 for an integer")
        body = cx.block(body_nodes[1:-1])
        yield_values, result_names = loop_yield(cx, last, iters)
        body.append(L.Yield.make(yield_values, span=cx.span(last)))
    finally:
        frame = cx.pop()
        cx.leave()
    cx.close(frame, f"defined inside the pl.while_ loop at line {stmt.lineno}")
    passed = yielded_arrays(cx, frame, iters, last)
    cx.arrays.end_loop(arrays_before, cx.visible, [p for p in passed if p[0] is not None and p[1] is not None])
    results = [cx.bind(name_node.id, it.var.type, name_node) for name_node, it in zip(result_names, iters)]
    share_results(cx, iters, result_names, passed)
    return [L.While.make(iters, cond, body, results, span=cx.span(stmt))]


@dsl_op("cond", STATEMENT, misplaced={
    VALUE: COND_MISPLACED, EXPRESSION: COND_MISPLACED, TARGETS: COND_MISPLACED, ARGUMENT: COND_MISPLACED,
})
def cond(cx: FunctionContext, call: ast.Call, args: Any) -> Any:
    # The while_ handler reads the pl.cond that begins its body; one read here is anywhere else.
    raise cx.error(COND_MISPLACED, call, hint=_COND_HINT)


def _is_cond(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and dsl_call(stmt.value) == "cond"
