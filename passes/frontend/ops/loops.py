"""Loops: ``for i in pl.range(...)`` and ``pl.parallel(...)``, with ``init_values=`` carries that
the body's last statement ``a, b = pl.yield_(...)`` updates; and ``pl.yield_`` in an if branch,
which names the branch's results. ``pl.pipeline(..., stage=k)`` is ``pl.range`` (the stage count
pipelines a kernel's loop; an orchestration loop runs its iterations in order), ``pl.unroll`` is
expanded here into one copy of the body per iteration. ``pl.split_aiv(n, mode=...)`` splits a
kernel's loop across the AIV sub-cores: an orchestration function has none, so it is refused here
with a located error (``SPLIT_AIV_REFUSED``); in a kernel's body or a ``pl.at`` block it is kernel
code, which nanopass does not read.
``pl.while_`` reads its carries and its end as these loops do (``while_loops``).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.languages import surface as S
from nanopass.languages.terms import LoopKind

from ..exprs import constant, index_int, unsigned_mix
from ..limits import MAX_PARALLEL_NESTING, MAX_UNROLL
from ..names import dsl_call
from ..registry import ITERATOR, STATEMENT, TARGETS, dsl_op, refuse_op
from ..type_reader import INDEX, INDEX_T, INT_DTYPES, compatible, type_text

if TYPE_CHECKING:
    from ..context import FunctionContext

L = S.LANGUAGE
_SEQ, _PARALLEL = LoopKind.seq, LoopKind.parallel  # (an Enum member is slow to look up on its class)
_SCALAR, _INT = L.ScalarType, L.Int
_COUNTER = L.Var.make("i")  # a loop's counter (an int64_t), compared with the loop's stop
_CONSTANT = ast.Constant


SPLIT_AIV_REFUSED = (
    "pl.split_aiv(n, mode=...) splits a kernel's loop across the two AIV sub-cores of a vector core, each "
    "running its share of the iterations: it is kernel code, and an orchestration function runs on the host "
    "CPU, with no sub-cores to split across. Put the loop in a kernel or a pl.at block, or use pl.range here"
)
refuse_op("split_aiv", SPLIT_AIV_REFUSED)


@dsl_op("range", ITERATOR)
def range_(cx: FunctionContext, stmt: ast.For, call: ast.Call) -> list[Any]:
    return counted_loop(cx, stmt, call, _SEQ)


@dsl_op("parallel", ITERATOR)
def parallel(cx: FunctionContext, stmt: ast.For, call: ast.Call) -> list[Any]:
    return counted_loop(cx, stmt, call, _PARALLEL)


@dsl_op("pipeline", ITERATOR)
def pipeline(cx: FunctionContext, stmt: ast.For, call: ast.Call) -> list[Any]:
    return counted_loop(cx, stmt, call, _SEQ, extra=("stage",))


@dsl_op("unroll", ITERATOR)
def unroll(cx: FunctionContext, stmt: ast.For, call: ast.Call) -> list[Any]:
    """``for i in pl.unroll(stop | start, stop[, step])``: the body once per iteration, in order,
    ``i`` read as that iteration's constant. Names first bound in the body are not visible after
    the loop (as for ``pl.range``); every other assignment is sequential, as in the copies."""
    if call.keywords:
        raise cx.error(f"pl.unroll has no keyword argument '{call.keywords[0].arg}'", call.keywords[0].value,
                       hint="pl.unroll takes int literals and no init_values")
    if not 1 <= len(call.args) <= 3:
        raise cx.error("pl.unroll takes 1 to 3 int literals: (stop), (start, stop) or (start, stop, step)", call)
    for arg in call.args:
        if isinstance(arg, ast.Name) and cx.lookup(arg.id) is not None:
            raise cx.error(f"pl.unroll's bounds must be constants, but '{arg.id}' is a variable", arg,
                           hint="use pl.range for a loop whose trip count is known only at run time")
    bounds = [cx.types.const_int(arg) for arg in call.args]
    start, stop, step = (0, bounds[0], 1) if len(bounds) == 1 else (*bounds, 1)[:3]
    if step <= 0:
        raise cx.error("a loop step must be positive", call.args[2])
    trips = range(start, stop, step)
    if len(trips) > MAX_UNROLL:
        raise cx.error(f"pl.unroll would copy the body {len(trips)} times; at most {MAX_UNROLL}", call,
                       hint="use pl.range for a long loop")
    if not isinstance(stmt.target, ast.Name):
        raise cx.error("the loop target of pl.unroll must be a name", stmt.target)
    name = stmt.target.id
    out: list[Any] = []
    for value in trips:
        cx.enter(stmt)
        cx.push()
        try:
            cx.define(name, INDEX_T, stmt.target, "unrolled")
            cx.unrolled[name] = index_int(value)
            out.extend(cx.block(stmt.body))
        finally:
            frame = cx.pop()
            cx.leave()
        cx.close(frame, f"defined inside the pl.unroll loop at line {stmt.lineno}")
    return out


def counted_loop(cx: FunctionContext, stmt: ast.For, call: ast.Call, kind: LoopKind, extra: tuple[str, ...] = ()) -> list[Any]:
    """``for i in pl.range(...)`` / ``pl.parallel(...)``, with ``init_values=`` carries or not."""
    parallel = kind is _PARALLEL
    if parallel and cx.parallel_depth >= MAX_PARALLEL_NESTING:
        raise cx.error(f"pl.parallel loops are nested more than {MAX_PARALLEL_NESTING} deep", stmt)
    bounds = loop_bounds(cx, call)
    init_node = None
    for kw in call.keywords:
        if kw.arg == "init_values" and init_node is None:
            init_node = kw.value
        if kw.arg in extra:
            stage = cx.types.const_int(kw.value)
            if stage < 1:
                raise cx.error(f"pl.{dsl_call(call)}'s {kw.arg}= must be a positive int, got {stage}", kw.value)
        elif kw.arg not in ("init_values", "attrs"):
            raise cx.error(f"pl.{dsl_call(call)} has no keyword argument '{kw.arg}'", kw.value)
    cx.enter(stmt)
    cx.push()
    cx.parallel_depth += parallel
    try:
        iters: list[Any] = []
        explicit = init_node is not None
        if explicit:
            var_node, iter_names = explicit_loop_target(cx, stmt.target, init_node)
            iters = iter_args(cx, iter_names, init_node.elts)
        else:
            var_node = stmt.target
            if not isinstance(var_node, ast.Name):
                raise cx.error(
                    "the loop target must be a name (or i, (a, b) with init_values=...)", var_node
                )
        arrays_before = cx.arrays.begin_loop(stmt.lineno)  # (after the init values: read once, before the loop)
        var_name = var_node.id
        # (trusted: a name cx.define has checked, as Scope.bind's Binder)
        var = L.Binder.make_trusted(var_name, INDEX_T, cx.define(var_name, INDEX_T, var_node, "loopvar").span)
        body_nodes = stmt.body
        results: list[Any] = []
        yield_values: list[Any] = []
        if explicit:
            last = body_nodes[-1]
            if not is_yield_assign(last):
                raise cx.error(
                    "a loop with init_values must end with an assignment from pl.yield_(...)",
                    last,
                    hint="for i, (a,) in pl.range(n, init_values=(x,)): ...; a_out = pl.yield_(a_next)",
                )
            body = cx.block(body_nodes[:-1])
            yield_values, result_names = loop_yield(cx, last, iters)
            body.append(L.Yield.make(yield_values, span=cx.span(last)))
        else:
            body = cx.block(body_nodes)
    finally:
        cx.parallel_depth -= parallel
        frame = cx.pop()
        cx.leave()
    cx.close(frame, f"defined inside the loop at line {stmt.lineno}")
    passed = yielded_arrays(cx, frame, iters, body_nodes[-1]) if explicit else []
    cx.arrays.end_loop(arrays_before, cx.visible, [p for p in passed if p[0] is not None and p[1] is not None])
    if explicit:
        for name_node, it in zip(result_names, iters):
            results.append(cx.bind(name_node.id, it.var.type, name_node))
        share_results(cx, iters, result_names, passed)
    start, stop, step = bounds
    # (trusted: a Binder, the bounds' expressions, a LoopKind, IterArgs, the statements the readers
    # built, Binders, a Span: each made by a constructor of its kind)
    return [L.For.make_trusted(var, start, stop, step, kind, iters, body, results, cx.span(stmt))]


def explicit_loop_target(cx: FunctionContext, target: ast.expr, init_node: ast.expr) -> tuple[ast.Name, list[ast.Name]]:
    if not isinstance(init_node, (ast.Tuple, ast.List)):
        raise cx.error("init_values must be a tuple or list", init_node)
    if not (
        isinstance(target, ast.Tuple)
        and len(target.elts) == 2
        and isinstance(target.elts[0], ast.Name)
        and isinstance(target.elts[1], (ast.Tuple, ast.List))
    ):
        raise cx.error("with init_values the loop target must be i, (a, b, ...)", target)
    names = list(target.elts[1].elts)
    for n in names:
        if not isinstance(n, ast.Name):
            raise cx.error("loop carries must be plain names", n)
    if len(names) != len(init_node.elts):
        raise cx.error(
            f"{len(names)} loop carries but {len(init_node.elts)} init values", init_node
        )
    return target.elts[0], names


def iter_args(cx: FunctionContext, names: list[ast.Name], inits: list[ast.expr]) -> list[Any]:
    """A loop's carries (``pl.range``'s or ``pl.while_``'s ``init_values``): each name bound in the
    body with its init value's type, the init value read outside the loop."""
    iters: list[Any] = []
    for name_node, init in zip(names, inits):
        init_expr, init_ty = cx.outside(lambda init=init: cx.expr(init))
        if init_ty._production not in ("TensorType", "ScalarType", "ArrayType"):
            raise cx.error("an init value must be a tensor, a scalar or an array", init)
        source = cx.outside(lambda init=init: cx.visible.get(init.id)) if type(init) is ast.Name else None
        binding = cx.define(name_node.id, init_ty, name_node, "iter")
        if source is not None:
            cx.arrays.share(source, init.id, binding, name_node.id, init)  # (D18: the carry starts as the init)
        iters.append(L.IterArg.make(L.Binder.make(name_node.id, init_ty, span=binding.span), init_expr))
    return iters


def yielded_arrays(cx: FunctionContext, frame: dict, iters: list[Any], last: ast.stmt) -> list[tuple[Any, Any, ast.AST]]:
    """Per carry of a loop whose body ``frame`` was just popped, in order: the carry's binding
    (None: not an array), the binding of the name its ``pl.yield_`` passes on (a name of the
    body, or one visible after the loop; None: not a name) and the yielded node (D18)."""
    passed = []
    for it, arg in zip(iters, last.value.args):
        carry = frame.get(it.var.name) if it.var.type._production == "ArrayType" else None
        source = (frame.get(arg.id) or cx.visible.get(arg.id)) if carry is not None and type(arg) is ast.Name else None
        passed.append((carry, source, arg))
    return passed


def share_results(cx: FunctionContext, iters: list[Any], result_names: list[ast.Name],
                  passed: list[tuple[Any, Any, ast.AST]]) -> None:
    """Each array result of a loop, just bound, names the array its carry and its yielded name
    name (D18)."""
    for it, name_node, (carry, source, node) in zip(iters, result_names, passed):
        if carry is None:
            continue
        result = cx.visible.get(name_node.id)
        if result is None:
            continue
        cx.arrays.forget(result)
        # (the result holds what the last iteration yielded, not the carry as the body left it: a
        # carry stale at the body's end, a printed version updated into the yielded one, hands the
        # result no staleness)
        cx.arrays.share(carry, it.var.name, result, name_node.id, name_node, fresh=True)
        if source is not None:
            cx.arrays.share(source, node.id, result, name_node.id, name_node)


def loop_yield(cx: FunctionContext, stmt: ast.stmt, iters: list[Any]) -> tuple[list[Any], list[ast.Name]]:
    call = stmt.value
    target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
    names = list(target.elts) if isinstance(target, (ast.Tuple, ast.List)) else [target]
    for n in names:
        if not isinstance(n, ast.Name):
            raise cx.error("pl.yield_ results must be plain names", n)
    if len(call.args) != len(iters):
        raise cx.error(
            f"pl.yield_ gives {len(call.args)} value(s) but the loop carries {len(iters)}", call
        )
    if len(names) != len(iters):
        raise cx.error(f"pl.yield_ is unpacked into {len(names)} name(s) but the loop carries {len(iters)}", stmt)
    values = []
    for arg, it in zip(call.args, iters):
        expr, ty = cx.expr(arg)
        if not compatible(it.var.type, ty):
            raise cx.error(
                f"the carry '{it.var.name}' changes type in the loop: {type_text(it.var.type)} before, "
                f"{type_text(ty)} yielded",
                arg,
            )
        values.append(expr)
    return values, names


def loop_bounds(cx: FunctionContext, call: ast.Call) -> tuple[Any, Any, Any]:
    args = call.args
    if not 1 <= len(args) <= 3:
        raise cx.error("pl.range takes 1 to 3 arguments: (stop), (start, stop) or (start, stop, step)", call)
    exprs = []
    stop = args[1] if len(args) > 1 else args[0]
    for arg in args:
        # (cx.expr of a constant, the usual bound, without its dispatch: a loop is read outside
        # any expression)
        expr, ty = constant(cx, arg.value, arg) if type(arg) is _CONSTANT else cx.expr(arg)
        if type(ty) is not _SCALAR or ty.dtype not in INT_DTYPES:
            raise cx.error(f"a loop bound must be an integer, got {type_text(ty)}", arg)
        if arg is stop and ty.dtype is not INDEX and unsigned_mix(_COUNTER, INDEX, expr, ty.dtype):
            raise cx.error(
                f"a loop stop cannot be a {type_text(ty)}: C++ compares the int64_t counter with it as "
                f"{ty.dtype.c_type}, where a negative counter is a huge one", arg, hint="declare it pl.INT64",
            )
        exprs.append(expr)
    if len(exprs) == 1:
        return index_int(0), exprs[0], index_int(1)
    if len(exprs) == 2:
        return exprs[0], exprs[1], index_int(1)
    if type(exprs[2]) is _INT and exprs[2].value <= 0:
        raise cx.error("a loop step must be positive", args[2],
                       hint="count up and compute the index: for j in pl.range(n): i = n - 1 - j")
    return exprs[0], exprs[1], exprs[2]


@dsl_op("yield_", TARGETS, misplaced={
    STATEMENT: "pl.yield_ must be assigned: a, b = pl.yield_(x, y)",
})
def yield_(cx: FunctionContext, call: ast.Call, targets: list[ast.expr], unpacked: bool, stmt: ast.stmt) -> list[Any]:
    # pl.yield_ inside an if branch names the branch's results: x = pl.yield_(v) is x = v.
    if len(call.args) != len(targets):
        raise cx.error(f"pl.yield_ gives {len(call.args)} value(s) to {len(targets)} name(s)", call)
    out = []
    for target, arg in zip(targets, call.args):
        if not isinstance(target, ast.Name):
            raise cx.error("pl.yield_ results must be plain names", target)
        expr, ty = cx.rhs(arg)
        out.append(L.Let.make(cx.bind(target.id, ty, target), expr, span=cx.span(stmt)))
    return out


def is_yield_assign(stmt: ast.stmt) -> bool:
    value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
    return value is not None and dsl_call(value) == "yield_"
