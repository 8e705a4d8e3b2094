"""Statements of the orchestration function, one reader per ``ast`` class (``registry.STATEMENTS``):
assignments (whose value may be a DSL operation, a kernel call or an expression), expression
statements, ``return``, ``if``; ``for`` and ``with`` hand their iterator or context manager to
its operation's form. Every other statement is refused with ``unsupported_statement``'s message.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.errors import quoted
from nanopass.languages import surface as S

from .names import attr_path, dsl_call, self_method
from .ops.host_access import array_write, subscript
from .ops.debug_tags import untag
from .ops.inlining import expand, self_call
from .ops.nested_calls import tensor_value
from .ops.operands import constant_truth
from .ops.submits import kernel_call
from .registry import (BINDING, CONTEXT, EXPRESSION, ITERATOR, OPS, REFUSED, STATEMENT, TARGETS, VALUE, names_in,
                       refusal, spelled_list, statement)
from .source import short_source
from .type_reader import BOOL_T, TID_T, check_annotation, compatible, type_text

if TYPE_CHECKING:
    from .context import FunctionContext

L = S.LANGUAGE


@statement(ast.Assign)
def read_assign(cx: FunctionContext, stmt: ast.Assign) -> list[Any]:
    targets = stmt.targets
    if len(targets) != 1:
        raise cx.error("chained assignment (a = b = ...) is not supported", stmt)
    target = targets[0]
    kind = type(target)
    if kind is _NAME:  # (the usual target first: isinstance below for the others)
        return assign(cx, [target], stmt.value, stmt, None)
    if isinstance(target, ast.Subscript):
        return [array_write(cx, target, stmt.value, stmt)]
    if isinstance(target, (ast.Tuple, ast.List)):
        return assign(cx, list(target.elts), stmt.value, stmt, None, tuple_target=True)
    return assign(cx, [target], stmt.value, stmt, None)


def assign(
    cx: FunctionContext, targets: list[ast.expr], value: ast.expr, stmt: ast.stmt, annotated: Any,
    tuple_target: bool = False, exact: bool = False,
) -> list[Any]:
    """The statements of an assignment (``annotated``: its annotation's type, None without one;
    ``exact``: the annotation names a variable of the function as a dimension, and must then be
    the value's type itself)."""
    spelled = None
    if type(value) is _CALL:
        func = value.func
        receiver = func.value if type(func) is _ATTRIBUTE else None  # (each ast field read once: a dictionary lookup)
        if type(receiver) is _NAME:  # self.k(...) or pl.op(...), the usual spellings
            spelled = func.attr
            if receiver.id == "self":  # (self_call, inlined: most statements call a kernel)
                fdef = cx.program.inlines.get(spelled)
                if fdef is None:
                    read = [kernel_call(cx, value, targets if (tuple_target or targets) else None, stmt, spelled)]
                    return read if annotated is None else _annotated_result(
                        cx, read, stmt, annotated, exact, f"the result of kernel '{spelled}'")
                read = expand(cx, fdef, value, targets if (tuple_target or targets) else None, stmt)
                return read if annotated is None else _annotated_result(
                    cx, read, stmt, annotated, exact, f"the result of inline function '{spelled}'")
        else:
            if (method := self_method(func)) is not None:
                read = self_call(cx, value, targets if (tuple_target or targets) else None, stmt, method)
                what = "inline function" if method in cx.program.inlines else "kernel"
                return read if annotated is None else _annotated_result(
                    cx, read, stmt, annotated, exact, f"the result of {what} '{method}'")
            spelled = dsl_call(value)
    op = OPS.get(spelled) if spelled is not None else None
    if op is not None and TARGETS in op.forms:
        read = op.forms[TARGETS].handler(cx, value, targets, tuple_target, stmt)
        return read if annotated is None else _annotated_result(cx, read, stmt, annotated, exact, None)
    for target in targets:
        if not isinstance(target, ast.Name):
            raise cx.error("the target of an assignment must be a variable name", target)
    if tuple_target:
        unpacked = spelled_list(names_in(TARGETS), "", "and")
        raise cx.error(f"only kernel calls, {unpacked} can be unpacked into several names", stmt)
    target = targets[0]
    name = target.id
    if op is not None:
        forms = op.forms
        if BINDING in forms:
            read = forms[BINDING].handler(cx, value, target, stmt)
            return read if annotated is None else _annotated_result(cx, read, stmt, annotated, exact, None)
        form = forms.get(VALUE)  # (value_of's first case, inlined: most values are DSL operations')
        if form is not None:
            expr, ty = form.handler(cx, value, op.bind(cx, value, form))
        else:
            expr, ty = value_of(cx, value, spelled, op)
    else:
        expr, ty = value_of(cx, value, spelled, op)
    if annotated is not None:
        ty = check_annotation(cx, annotated, ty, stmt, name, exact)
        if expr._production == "Int" and ty._production == "ScalarType":
            expr = L.Int.make(expr.value, ty.dtype)
    if cx.dump_tags:
        untag(cx, name)
    source = cx.visible.get(value.id) if type(value) is _NAME else None
    binder = cx.bind(name, ty, target)
    if ty._production == "ArrayType" and name != "_":
        receiver = cx.visible[name]
        cx.arrays.forget(receiver)  # (D18: the name of another array now, or a second name of this one)
        if source is not None:
            cx.arrays.share(source, value.id, receiver, name, stmt)
    # (trusted: the Binder cx.bind built, and the value a reader of a right-hand side built: each
    # reader's value is an Rhs, made by that kind's constructors)
    return [L.Let.make_trusted(binder, expr, _statement_span(cx, stmt, target, binder.span))]


def _annotated_result(cx: FunctionContext, statements: list[Any], stmt: ast.AnnAssign, annotated: Any,
                      exact: bool, holds: str | None) -> list[Any]:
    """``statements``, the reading of ``r: T = <call>`` whose reader bound ``r`` itself (a kernel
    call, an inline function's, an operation that binds its target), once ``T`` (``annotated``) is
    checked against the type ``r`` was bound to: a user error at the annotation, saying what ``r``
    holds (``holds``: the call's description; None: ``check_annotation``'s message at ``stmt``).
    ``_``, which binds nothing, is not checked (as ``_: T = pl.submit(...)`` is not)."""
    name = stmt.target.id
    binding = cx.lookup(name)
    if binding is None:
        return statements
    ty = binding.type
    if holds is None:
        check_annotation(cx, annotated, ty, stmt, name, exact)
    elif annotated._production != ty._production or not (annotated == ty if exact else compatible(annotated, ty)):
        raise cx.error(f"type annotation of '{name}' is {quoted(short_source(stmt.annotation))}, but '{name}' holds "
                       f"{holds}, {type_text(ty)}", stmt.annotation, hint=f"annotate it {type_text(ty)}")
    return statements


def _statement_span(cx: FunctionContext, stmt: ast.stmt, target: ast.expr, span: Any) -> Any:
    """``cx.span(stmt)``: ``span``, the span of ``target``, when the statement begins at its target
    (``x = ...``, the usual assignment): one Span for both (None: no span made at the target)."""
    try:
        if span is None:
            pass
        elif cx.ascii_columns:  # (span holds the target's line and column, ast's in a file of ASCII text)
            if span[2] == stmt.col_offset and span[1] == stmt.lineno:
                return span
        elif target.col_offset == stmt.col_offset and target.lineno == stmt.lineno:
            return span
    except AttributeError:  # (a node the compiler made without a position)
        pass
    return cx.span(stmt)


_CALL, _ATTRIBUTE, _NAME = ast.Call, ast.Attribute, ast.Name


def value_of(cx: FunctionContext, node: ast.expr, spelled: str | None, op: Any) -> tuple[Any, Any]:
    """``rhs`` once the callee is known: ``pl.<spelled>``, ``op`` when it is registered."""
    if isinstance(node, ast.Constant) and node.value is None:
        return L.NoTask.make(), TID_T
    if spelled is not None:
        form = op.forms.get(VALUE) if op is not None else None
        if form is not None:
            return form.handler(cx, node, op.bind(cx, node, form))
        if op is None or EXPRESSION not in op.forms:
            raise refusal(cx, spelled, op, VALUE, node)
    if isinstance(node, ast.Subscript):
        return subscript(cx, node)
    return cx.expr(node)


def rhs(cx: FunctionContext, node: ast.expr) -> tuple[Any, Any]:
    """The value of an assignment (its IR and type)."""
    spelled = dsl_call(node)
    return value_of(cx, node, spelled, OPS.get(spelled) if spelled is not None else None)


@statement(ast.AnnAssign)
def read_ann_assign(cx: FunctionContext, stmt: ast.AnnAssign) -> list[Any]:
    if stmt.value is None:
        raise cx.error("a declaration needs a value: x: T = ...", stmt)
    if not isinstance(stmt.target, ast.Name):
        raise cx.error("only a variable can be annotated", stmt.target)
    if dsl_call(stmt.value) in WHOLE_TUPLES and stmt.target.id != "_":
        return _annotated_whole_tuple(cx, stmt)
    annotated, exact = cx.types.annotation(cx, stmt.annotation)
    return assign(cx, [stmt.target], stmt.value, stmt, annotated, exact=exact)


WHOLE_TUPLES = ("submit", "spmd_submit")  # the operations a single name binds the whole tuple of


def _annotated_whole_tuple(cx: FunctionContext, stmt: ast.AnnAssign) -> list[Any]:
    """``r: T = pl.submit(...)`` (or ``pl.spmd_submit``): ``r`` binds the whole tuple (results...,
    TaskId) (``submit_tuples``), so ``T`` must be that tuple's type, ``tuple[...]`` or
    ``pl.Tuple[...]`` of its elements' types; any other annotation is a user error at it, saying
    what ``r`` holds (a ``pl.Tensor`` annotation would have the result read as ``r`` itself)."""
    node = stmt.annotation
    head = attr_path(node.value) if isinstance(node, ast.Subscript) else None
    elements = None
    if head == ["tuple"] or (head is not None and head[-1] == "Tuple"):  # (tuple, pl.Tuple, typing.Tuple, Tuple)
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        elements = [cx.types.annotation(cx, item)[0] for item in items]
    else:
        cx.types.annotation(cx, node)  # (a misspelt type is refused as any annotation's is)
    statements = assign(cx, [stmt.target], stmt.value, stmt, None)
    name = stmt.target.id
    tup = cx.lookup(name).type
    if elements is None or len(elements) != len(tup.types) or not all(
            compatible(a, b) for a, b in zip(elements, tup.types)):
        results = len(tup.types) - 1
        held = "its TaskId alone" if not results else f"its result{'s' if results > 1 else ''}, then its TaskId"
        raise cx.error(f"type annotation of '{name}' is {quoted(short_source(node))}, but '{name}' holds the whole "
                       f"tuple of the {tup.what}, {held}: {tup.text()}", node,
                       hint=f"annotate it {tup.text()}, or unpack it: "
                            f"{('()', 'out', '(a, b)')[min(results, 2)]}, tid = {tup.what}(...)")
    return statements


@statement(ast.AugAssign)
def read_aug_assign(cx: FunctionContext, stmt: ast.AugAssign) -> list[Any]:
    if not isinstance(stmt.target, ast.Name):
        raise cx.error("only a variable can be the target of an augmented assignment", stmt.target)
    expr = ast.BinOp(left=ast.Name(stmt.target.id, ast.Load()), op=stmt.op, right=stmt.value)
    ast.copy_location(expr, stmt)
    ast.copy_location(expr.left, stmt.target)
    value, ty = cx.scalar_expr(expr)
    return [L.Let.make(cx.bind(stmt.target.id, ty, stmt), value, span=cx.span(stmt))]


@statement(ast.Expr)
def read_expr(cx: FunctionContext, stmt: ast.Expr) -> list[Any]:
    value = stmt.value
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return []
    if isinstance(value, ast.Call):
        method = self_method(value.func)
        if method is not None:
            return self_call(cx, value, None, stmt, method)
        spelled = dsl_call(value)
        op = OPS.get(spelled) if spelled is not None else None
        if op is not None:
            form = op.forms.get(STATEMENT)
            if form is not None:
                read = form.handler(cx, value, op.bind(cx, value, form))
                return [read] if read is not None else []
            if STATEMENT in op.misplaced:
                raise refusal(cx, spelled, op, STATEMENT, value)
        elif spelled in REFUSED:
            raise refusal(cx, spelled, op, STATEMENT, value)
        elif isinstance(value.func, ast.Name) and value.func.id == "print" and cx.lookup("print") is None:
            raise cx.error("print(...) is host printing, which is not part of orchestration code: the function "
                           "compiles to C++ that submits tasks and reads and writes tensor elements, and prints "
                           "nothing", stmt, hint="drop it; to inspect a tensor a task receives, mark it with "
                                                 "pl.dump_tag(t) for the runtime's dump")
    raise cx.error(
        f"this expression has no effect as a statement: {quoted(short_source(stmt))}", stmt
    )


@statement(ast.Return)
def read_return(cx: FunctionContext, stmt: ast.Return) -> list[Any]:
    if cx.depth:
        raise cx.error("return is only allowed at the end of the orchestration function", stmt)
    values = []
    if stmt.value is not None:
        elts = stmt.value.elts if isinstance(stmt.value, ast.Tuple) else [stmt.value]
        for elt in elts:
            expr, ty = tensor_value(cx, elt)
            if ty._production != "TensorType":
                raise cx.error("an orchestration function returns tensors (its Out/InOut parameters)", elt)
            values.append((expr, ty, elt))
    if len(values) != len(cx.results):
        raise cx.error(
            f"'{cx.fdef.name}' declares {len(cx.results)} return value(s) but returns {len(values)}", stmt
        )
    for (_expr, ty, elt), declared in zip(values, cx.results):
        if ty != declared:
            raise cx.error(f"'{cx.fdef.name}' returns a {type_text(ty)} where its return type declares "
                           f"{type_text(declared)}", elt)
    values = [expr for expr, _ty, _elt in values]
    return [L.Return.make(values, span=cx.span(stmt))]


@statement(ast.If)
def read_if(cx: FunctionContext, stmt: ast.If) -> list[Any]:
    cond, ty = cx.expr(stmt.test)
    if ty is not BOOL_T and ty != BOOL_T:
        raise cx.error(
            f"an if condition must be a comparison or another bool expression, got {type_text(ty)}",
            stmt.test,
            hint="write n != 0 for an integer",
        )
    known = constant_truth(cond)  # (a pl.unroll copy's guard: the branch not taken is never run)
    cx.enter(stmt)
    arrays = cx.arrays
    before = arrays.state() if arrays.shares or arrays.stale else None
    arrays.branches += 1
    try:
        cx.push()
        cx.unreachable += known is False
        arrays.skipping += known is False  # (D18: what a branch no run takes reads or writes, no run does)
        then = cx.block(stmt.body)
        arrays.skipping -= known is False
        cx.unreachable -= known is False
        then_frame = cx.pop()
        if before is not None or arrays.shares or arrays.stale:  # (each branch starts from the state before the if)
            then_state = arrays.state()
            arrays.restore(before or ({}, {}))
        else:
            then_state = None
        cx.push()
        cx.unreachable += known is True
        arrays.skipping += known is True
        orelse = cx.block(stmt.orelse)
        arrays.skipping -= known is True
        cx.unreachable -= known is True
        else_frame = cx.pop()
    finally:
        arrays.branches -= 1
        cx.leave()
    if then_state is not None:
        arrays.join(then_state)
    for name, binding in then_frame.items():
        other = else_frame.get(name)
        if other is not None and compatible(binding.type, other.type):
            cx.set_binding(name, binding)
            if binding.type._production == "ArrayType":
                arrays.merge(binding, other)
        elif other is not None:
            raise cx.error(
                f"'{name}' gets different types in the two branches: {type_text(binding.type)} and "
                f"{type_text(other.type)}",
                stmt,
            )
        elif cx.lookup(name) is None:
            cx.closed[name] = f"defined only in the then-branch of the if at line {stmt.lineno}"
    for name in else_frame:
        if name not in then_frame and cx.lookup(name) is None:
            cx.closed[name] = f"defined only in the else-branch of the if at line {stmt.lineno}"
    return [L.If.make_trusted(cond, then, orelse, cx.span(stmt))]  # (trusted: an Expr, the statements the readers built)


@statement(ast.For)
def read_for(cx: FunctionContext, stmt: ast.For) -> list[Any]:
    if stmt.orelse:
        raise cx.error("for ... else is not supported", stmt.orelse[0])
    call = stmt.iter
    spelled = dsl_call(call)
    op = OPS.get(spelled) if spelled is not None else None
    form = op.forms.get(ITERATOR) if op is not None else None
    if form is None and spelled in REFUSED:
        raise refusal(cx, spelled, op, ITERATOR, call)
    if form is None:
        iterators = spelled_list(names_in(ITERATOR), "(...)", "or")
        raise cx.error(f"a for loop must iterate over {iterators}", call)
    return form.handler(cx, stmt, call)


@statement(ast.With)
def read_with(cx: FunctionContext, stmt: ast.With) -> list[Any]:
    items = stmt.items
    if len(items) != 1:
        raise cx.error("a with statement takes one context manager", stmt)
    item = items[0]
    manager = item.context_expr
    spelled = dsl_call(manager)
    op = OPS.get(spelled) if spelled is not None else None
    form = op.forms.get(CONTEXT) if op is not None else None
    if item.optional_vars is not None and (form is None or not form.binds_as):
        raise cx.error("'with ... as' is not supported for scopes", item.optional_vars)
    if form is None:
        managers = spelled_list(names_in(CONTEXT), "()", "or")
        raise cx.error(f"unsupported context manager: use {managers}", manager)
    return form.handler(cx, stmt, manager)


@statement(ast.Pass)
def read_pass(cx: FunctionContext, stmt: ast.Pass) -> list[Any]:
    return []


# The message for each statement class the DSL does not have (tests/test_frontend_registry.py checks
# that every class of this Python's ast either has a reader or is named here).
UNSUPPORTED = {
    "While": "while loops are not supported; use for ... in pl.while_(init_values=...) with pl.cond, or pl.range",
    "Break": "'break' is not supported in orchestration loops",
    "Continue": "'continue' is not supported in orchestration loops",
    "Try": "try statements are not supported",
    "TryStar": "try statements are not supported",
    "Import": "import statements are not allowed in an orchestration function",
    "ImportFrom": "import statements are not allowed in an orchestration function",
    "FunctionDef": "nested function definitions are not supported",
    "ClassDef": "nested classes are not supported",
    "Delete": "del is not supported",
    "Assert": "assert is not supported in orchestration functions",
    "Raise": "raise is not supported in orchestration functions",
    "Global": "global is not supported",
    "Nonlocal": "nonlocal is not supported",
    "Match": "match statements are not supported",
    "AsyncFunctionDef": "nested function definitions are not supported",
    "AsyncFor": "async for is not supported; use pl.range",
    "AsyncWith": "async with is not supported",
    "TypeAlias": "type aliases are not supported in orchestration functions",
}


def unsupported_statement(stmt: ast.stmt) -> str:
    """The message for a statement no reader reads (the generic one for a class ``UNSUPPORTED`` does
    not name, which a newer Python may have)."""
    generic = f"unsupported statement: {quoted(short_source(stmt).splitlines()[0])}"
    return UNSUPPORTED.get(type(stmt).__name__, generic)
