"""Tasks: kernel calls ``self.k(...)``, ``pl.submit(self.k, ..., deps=[...])`` with its TaskId, the
arguments of a task (``pl.no_dep(t)``), ``deps=`` lists, call-site ``attrs=`` (read by ``call_attrs``),
and the TaskId sources that are not a kernel: ``pl.system.task_dummy(deps=[...])`` (a barrier) and ``pl.system.task_invalid()``.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.errors import UserError, quoted
from nanopass.suggest import did_you_mean
from nanopass.languages import surface as S
from nanopass.languages.terms import DType, FuncKind, ParamDir

from ..limits import MAX_TASK_SCALARS, MAX_TASK_TENSORS
from ..exprs import name as read_name
from ..names import dsl_call, self_method
from ..registry import ARGUMENT, BINDING, EXPRESSION, MUST_BE_ASSIGNED, OPS, STATEMENT, TARGETS, VALUE, dsl_op
from ..source import short_source
from ..type_reader import BOOL, FLOAT_DTYPES, INT_DTYPES, TASK_ID, TID_T, shapes_match, type_text
from .call_attrs import NO_ATTRS, CallAttrs, apply_direction, read_attrs
from .debug_tags import dump_positions
from .nested_calls import tensor_value
from .. import submit_tuples

if TYPE_CHECKING:
    from ..context import FunctionContext
    from ..program import KernelSig

L = S.LANGUAGE


def kernel_call(cx: FunctionContext, call: ast.Call, targets: list[ast.expr] | None, stmt: ast.stmt,
                name: str | None = None) -> Any:
    """The task of ``self.k(...)`` (``name``: ``k`` when the caller has read it)."""
    if name is None:
        name = self_method(call.func)
    sig = cx.program.kernels[name] if name in cx.dispatchable else kernel_sig(cx, name, call.func)
    attrs_node = None
    for kw in call.keywords:
        if kw.arg == "attrs":
            attrs_node = kw.value
            continue
        hint = "use pl.submit(self.k, ..., deps=[...]) for explicit dependencies" if kw.arg == "deps" else None
        raise keyword_error(cx, f"kernel '{name}'", kw, sig.params, _signature_hint(sig), hint)
    nodes = call.args
    if len(nodes) != len(sig.params):
        raise cx.error(
            f"kernel '{name}' expects {len(sig.params)} argument(s), got {len(nodes)}",
            call,
            hint=_signature_hint(sig),
        )
    attrs, args = _call_args(cx, nodes, sig, attrs_node, name)
    outs = task_outs(cx, targets, sig, call, stmt, statement=False, args=args) if targets is not None else []
    dumps = dump_positions(cx, args, None, f"kernel '{name}'") if cx.dump_tags else ()
    # (trusted: Binders and Args their constructors built, the name of a kernel whose Kernel node was
    # built checked with it, the Deps of attrs=, a list of ints, a Span)
    return L.Task.make_trusted(outs, None, name, args, dumps, False, attrs.edges or (), None, cx.span(call))


def task_args(cx: FunctionContext, nodes: list[ast.expr], sig: KernelSig, attrs: CallAttrs) -> list[Any]:
    """The arguments of a task of ``sig``, with the directions ``attrs`` gives them."""
    if not attrs.directions:  # (most calls: no attrs=, so no direction to apply)
        # (a loop by index, not a comprehension over a zip: each is an object, and a frame, per
        # call; the callers have checked that no more nodes than parameters are given)
        out, params, kernel, k = [], sig.params, sig.name, 0
        for node in nodes:
            out.append(task_arg(cx, node, params[k], kernel))
            k += 1
        return out
    given = attrs.directions
    return [
        apply_direction(cx, task_arg(cx, node, param, sig.name), param, hint)
        for node, param, hint in zip(nodes, sig.params, given)
    ]


@dsl_op("submit", TARGETS, misplaced={
    STATEMENT: "pl.submit(...) must be unpacked: out, tid = pl.submit(...)",
    EXPRESSION: MUST_BE_ASSIGNED,
})
def submit(
    cx: FunctionContext, call: ast.Call, targets: list[ast.expr], tuple_target: bool, stmt: ast.stmt,
    what: str = "pl.submit",
) -> list[Any]:
    """``out, tid = pl.submit(self.k, ..., deps=[...])`` (``what`` names the operation in messages:
    ``pl.spmd_submit`` reads its call through this handler, its launch keywords taken out)."""
    nodes = call.args
    name = self_method(nodes[0]) if nodes else None
    if name is None:
        raise cx.error(f"{what}'s first argument must be a kernel: {what}(self.k, ...)", call)
    sig = cx.program.kernels[name] if name in cx.dispatchable else kernel_sig(cx, name, nodes[0])
    args_nodes = nodes[1:]
    deps_node = attrs_node = dumps_node = None
    early_resolve = False
    for kw in call.keywords:
        if kw.arg == "deps":
            deps_node = kw.value
        elif kw.arg == "attrs":
            attrs_node = kw.value
        elif kw.arg == "dumps":
            dumps_node = kw.value
        elif kw.arg == "allow_early_resolve":
            early_resolve = cx.program._bool_literal(kw.value, "allow_early_resolve")
        elif kw.arg == "predicate":
            refuse_predicate(cx, kw.value, what)
        else:
            raise cx.error(f"{what} has no keyword argument '{kw.arg}'", kw.value)
    n_params = len(sig.params)
    if len(args_nodes) != n_params:
        omitted = sig.params[len(args_nodes) :]
        if len(args_nodes) > n_params or any(p.dir is not ParamDir.Out for p in omitted):
            raise cx.error(
                f"kernel '{name}' expects {n_params} argument(s), got {len(args_nodes)}",
                call,
                hint=_signature_hint(sig) + "; only trailing pl.Out parameters may be left out",
            )
    attrs, args = _call_args(cx, args_nodes, sig, attrs_node, name)
    deps = dep_list(cx, deps_node, name) if deps_node is not None else []
    if attrs.edges:
        deps += attrs.edges
    # targets: (outs, tid) or tid alone
    if tuple_target:
        if len(targets) != 2:
            raise cx.error(
                f"{what} must be unpacked as exactly 2 targets (results, task_id), got {len(targets)}", stmt
            )
        result_node, tid_node = targets
        if isinstance(result_node, (ast.Tuple, ast.List)):
            result_targets = list(result_node.elts)
        else:
            result_targets = [result_node]
            if len(sig.results) > 1 and not (isinstance(result_node, ast.Name) and result_node.id == "_"):
                raise cx.error(
                    f"kernel '{name}' returns {len(sig.results)} value(s); unpack them as (a, b), tid", result_node
                )
        if len(sig.results) == 0 and result_targets and not (
            len(result_targets) == 1 and isinstance(result_targets[0], ast.Name) and result_targets[0].id == "_"
        ):
            raise cx.error(f"kernel '{name}' returns nothing; write (), tid = {what}(...)", result_node,
                           hint=unannotated_hint(cx, sig))
        if len(sig.results) == 0:
            result_targets = []
    elif isinstance(targets[0], ast.Name) and targets[0].id != "_":  # r = pl.submit(...): r is the whole tuple
        return [whole_tuple(cx, targets[0], sig, call, args, deps, dumps_node, early_resolve, what)]
    else:
        tid_node = targets[0]
        result_targets = []
    if not isinstance(tid_node, ast.Name):
        raise cx.error("the task_id target must be a plain variable name", tid_node)
    outs = task_outs(cx, result_targets, sig, call, stmt, statement=not result_targets, args=args)
    tid = cx.bind(tid_node.id, TID_T, tid_node)
    dumps = dump_positions(cx, args, dumps_node, what) if dumps_node is not None or cx.dump_tags else ()
    # (trusted: as kernel_call's Task, with the Binder cx.bind built, the Deps of deps= and attrs=
    # and a bool _bool_literal read)
    return [L.Task.make_trusted(outs, tid, name, args, dumps, early_resolve, deps, None, cx.span(call))]


def whole_tuple(cx: FunctionContext, target: ast.Name, sig: KernelSig, call: ast.Call,
                args: list[Any], deps: list[Any], dumps_node: ast.expr | None, early_resolve: bool, what: str) -> Any:
    """The task of ``r = pl.submit(...)``: ``r`` bound to the tuple (results..., task_id), each
    element to its variable (``submit_tuples``)."""
    names, tid_name = submit_tuples.element_names(target.id, len(sig.results))
    types = result_types(cx, sig, args) if sig.symbolic_results else sig.results
    for rtype in types:
        if rtype._production != "TensorType":
            raise cx.error(f"kernel '{sig.name}' returns a {type_text(rtype)}; kernels return tensors", call)
    tup = submit_tuples.SubmitTuple((*names, tid_name), (*types, TID_T), call.lineno, what)
    cx.bind(target.id, tup, target)  # (checks the name, and that a visible 'r' is such a tuple too)
    outs = [submit_tuples.bind_element(cx, name, rtype, target) for name, rtype in zip(names, types)]
    tid = submit_tuples.bind_element(cx, tid_name, TID_T, target)
    dumps = dump_positions(cx, args, dumps_node, what) if dumps_node is not None or cx.dump_tags else ()
    return L.Task.make(outs, tid, sig.name, args, dumps, early_resolve, deps, None, span=cx.span(call))


def kernel_sig(cx: FunctionContext, name: str, node: ast.AST) -> KernelSig:
    sig = cx.program.kernels.get(name)
    if name in cx.dispatchable:
        return sig
    if sig is None:
        if name in cx.program.inlines:
            raise cx.error(f"'{name}' is an inline function: call it as self.{name}(...), not as a task", node)
        if name == cx.fdef.name or any(f[0].name == name for f in cx.program.functions):
            raise cx.error(f"'{name}' is an orchestration function, not a kernel", node)
        bare = [f for f in cx.src.classdef.body if isinstance(f, ast.FunctionDef) and f.name == name and not f.decorator_list]
        if bare:  # a method the user forgot to decorate: the program reads only @pl.function methods
            raise cx.error(f"'{name}' (line {bare[0].lineno}) has no @pl.function decorator, so it is no kernel of "
                           f"program '{cx.src.name}'", node,
                           hint="decorate it: @pl.function(type=pl.FunctionType.AIV) (or AIC, InCore)")
        available = ", ".join(sorted(cx.program.kernels)) or "none"
        raise cx.error(
            f"function '{name}' is not defined in program '{cx.src.name}'", node,
            hint=did_you_mean(name, cx.program.kernels, "self.") or f"kernels: {available}"
        )
    if sig.kind is FuncKind.Opaque:
        raise cx.error(f"'{name}' is an Opaque function (no type=, type=pl.FunctionType.Opaque or @pl.jit.opaque): "
                       "it cannot be dispatched as a task", node,
                       hint="give it a core: @pl.function(type=pl.FunctionType.AIV) (or AIC, InCore); the existing "
                            "compiler's code generator refuses an Opaque callee too (reference-behaviour.md 10.1)")
    tensors = sum(1 for p in sig.params if p.type._production == "TensorType")
    scalars = len(sig.params) - tensors
    if tensors > MAX_TASK_TENSORS or scalars > MAX_TASK_SCALARS:
        raise cx.error(
            f"a task of '{name}' would pass {tensors} tensors and {scalars} scalars; one runtime task "
            f"takes at most {MAX_TASK_TENSORS} tensors and {MAX_TASK_SCALARS} scalars",
            node,
        )
    cx.dispatchable.add(name)
    return sig


def _call_args(cx: FunctionContext, nodes: list[ast.expr], sig: Any, attrs_node: ast.expr | None,
               name: str) -> tuple[Any, list[Any]]:
    """The attributes (``attrs=``) and task arguments of a call of kernel ``name`` passing ``nodes``;
    without ``attrs=`` (most calls) each argument read in one loop (``task_args`` skipped)."""
    if attrs_node is None:
        args, params, k = [], sig.params, 0
        for node in nodes:
            args.append(task_arg(cx, node, params[k], name))
            k += 1
        return NO_ATTRS, args
    attrs = read_attrs(cx, attrs_node, len(nodes), name)
    return attrs, task_args(cx, nodes, sig, attrs)


def task_outs(
    cx: FunctionContext, targets: list[ast.expr], sig: KernelSig, call: ast.Call, stmt: ast.stmt, statement: bool,
    args: list[Any] = (),
) -> list[Any]:
    """The binders of a call's results (``args``: the call's Args, whose tensors bind the kernel's
    dimension symbols: ``result_types``)."""
    if statement:
        return []
    if len(targets) != len(sig.results):
        raise cx.error(
            f"kernel '{sig.name}' returns {len(sig.results)} value(s) but {len(targets)} name(s) receive them",
            stmt, hint=unannotated_hint(cx, sig),
        )
    outs, results, k = [], result_types(cx, sig, args) if sig.symbolic_results else sig.results, 0
    for target in targets:  # (as many as results: checked above)
        rtype = results[k]
        k += 1
        if not isinstance(target, ast.Name):
            raise cx.error("results must be received by plain variable names", target)
        if type(rtype) is not _TENSOR_TYPE:  # (the type reader's types are the surface language's)
            raise cx.error(f"kernel '{sig.name}' returns a {type_text(rtype)}; kernels return tensors", call)
        outs.append(cx.bind(target.id, rtype, target))
    return outs


def unannotated_hint(cx: FunctionContext, sig: KernelSig) -> str | None:
    """For a call that receives results of a kernel with no ``-> ...`` annotation (so it returns
    nothing, whatever its body's ``return`` names): the hint to annotate it, with the types of the
    parameters its ``return`` names where it names parameters only; None for an annotated kernel."""
    fdef = next((f for f in cx.src.classdef.body if isinstance(f, ast.FunctionDef) and f.name == sig.name), None)
    if fdef is None or fdef.returns is not None:
        return None
    params = {p.name: p.type for p in sig.params}
    ret = next((s.value for s in reversed(fdef.body) if isinstance(s, ast.Return)), None)
    names = ret.elts if isinstance(ret, ast.Tuple) else [ret] if ret is not None else []
    types = [params.get(n.id) if isinstance(n, ast.Name) else None for n in names]
    if types and None not in types:
        texts = [type_text(t) for t in types]
        result = texts[0] if len(texts) == 1 else f"tuple[{', '.join(texts)}]"
    else:
        result = "pl.Tensor[[...], dtype]"
    return (f"kernel '{sig.name}' (line {fdef.lineno}) has no return annotation, so it returns nothing to its "
            f"caller: annotate it, def {sig.name}(...) -> {result}:")


def result_types(cx: FunctionContext, sig: KernelSig, args: list[Any]) -> list[Any]:
    """The types of a call's results: a kernel's dimension symbols name its arguments' dimensions,
    call by call, so each symbol of a declared result type that a tensor parameter's shape binds is
    the argument's dimension there (the first parameter binding it decides); the other dimensions
    are as declared."""
    bound: dict[str, Any] = {}
    visible = cx.visible
    for param, arg in zip(sig.params, args):
        ptype, expr = param.type, arg.value
        binding = visible.get(expr.name) if ptype._production == "TensorType" and expr._production == "Var" else None
        if binding is None or binding.type._production != "TensorType":
            continue
        for declared, actual in zip(ptype.shape, binding.type.shape):
            if declared._production == "Var":
                bound.setdefault(declared.name, actual)
    return [r if r._production != "TensorType" else
            r.replace(shape=tuple(bound.get(d.name, d) if d._production == "Var" else d for d in r.shape))
            for r in sig.results]


def task_arg(cx: FunctionContext, node: ast.expr, param: Any, kernel: str) -> Any:
    no_dep = False
    kind = type(node)
    while kind is _CALL and (form := _argument_form(node)) is not None:
        node = form.handler(cx, node)
        kind = type(node)
        no_dep = True
    ptype = param.type
    if kind is _CONSTANT and node.value is None:
        raise cx.error(f"None is not a value for parameter '{param.name}' of '{kernel}'", node)
    tensor = type(ptype) is _TENSOR_TYPE
    if kind is _NAME and not cx.expr_level:  # (tensor_value and cx.expr of a name: exprs.name)
        expr, ty = read_name(cx, node)
    else:
        expr, ty = tensor_value(cx, node) if tensor else cx.expr(node)
    if tensor:
        if type(ty) is not _TENSOR_TYPE:
            raise cx.error(
                f"parameter '{param.name}' of '{kernel}' is a tensor but the argument is a {type_text(ty)}", node
            )
        if type(expr) is not _VAR:
            raise cx.error("a tensor argument must be a variable", node)
        if ty is not ptype and (ty.dtype != ptype.dtype or not shapes_match(ptype.shape, ty.shape)):
            raise cx.error(
                f"parameter '{param.name}' of '{kernel}' is {type_text(ptype)} but the argument is "
                f"{type_text(ty)}",
                node,
            )
        # a name's Var is at the name (exprs.name): its span is the argument's (trusted: a Var,
        # a bool, no hint, a Span)
        return L.Arg.make_trusted(expr, no_dep, None, expr.span if kind is _NAME else cx.span(node))
    if no_dep:
        raise cx.error("pl.no_dep applies to tensor arguments only", node)
    if type(ptype) is not _SCALAR_TYPE:
        raise cx.error(f"parameter '{param.name}' of '{kernel}' cannot be passed to a task", node)
    if type(ty) is not _SCALAR_TYPE or ty.dtype is TASK_ID:
        raise cx.error(
            f"parameter '{param.name}' of '{kernel}' is a {type_text(ptype)} but the argument is a {type_text(ty)}",
            node,
        )
    want, got = ptype.dtype, ty.dtype
    if want in _NO_HOST_TYPE:  # FP16, BF16: a value the host computed has no bits to give in that dtype
        raise cx.error(
            f"parameter '{param.name}' of '{kernel}' is a {type_text(ptype)}: the host C++ has no "
            f"{want.name} type to pass a scalar in", node, hint="declare the kernel parameter pl.Scalar[pl.FP32]",
        )
    want_float = want in FLOAT_DTYPES
    if want_float and got in INT_DTYPES and type(expr) is _INT:
        expr = L.Float.make(float(expr.value), want)
    elif want_float != (got in FLOAT_DTYPES) or (want is BOOL) != (got is BOOL):
        raise cx.error(
            f"parameter '{param.name}' of '{kernel}' is a {type_text(ptype)} but the argument is a {type_text(ty)}",
            node,
        )
    elif type(expr) is _INT:  # (expr.replace(dtype=want), without its generic copy; trusted: an
        # Int's value, the dtype of a ScalarType, the Int's Span)
        expr = L.Int.make_trusted(expr.value, want, expr.span)
    elif type(expr) is _FLOAT:
        expr = expr.replace(dtype=want)
    return L.Arg.make_trusted(expr, False, None, cx.span(node))  # (trusted: an Expr cx.expr read or made above)


_CALL, _CONSTANT, _NAME = ast.Call, ast.Constant, ast.Name
_TENSOR_TYPE, _SCALAR_TYPE, _VAR, _INT, _FLOAT = L.TensorType, L.ScalarType, L.Var, L.Int, L.Float
_NO_HOST_TYPE = frozenset(d for d in DType if d.c_type is None)  # (DType.c_type is a property: a call per read)


@dsl_op("no_dep", ARGUMENT)
def no_dep(cx: FunctionContext, call: ast.Call) -> ast.expr:
    """``pl.no_dep(t)`` around a task argument: ``t``."""
    if len(call.args) != 1 or call.keywords:
        raise cx.error("pl.no_dep takes one tensor: pl.no_dep(t)", call)
    return call.args[0]


def dep_list(cx: FunctionContext, node: ast.expr, what: str) -> list[Any]:
    if not isinstance(node, (ast.List, ast.Tuple)):
        raise cx.error(f"'{what}' deps= must be a list of TaskId values", node)
    out = []
    for entry in node.elts:
        if type(entry) is _NAME:  # (the usual entry first: the cases below are of other classes)
            if submit_tuples.is_tuple_name(cx, entry):  # deps=[r] of r = pl.submit(...): r[-1] is meant
                submit_tuples.refuse_bare(cx, entry.id, entry, dep=True)
            expr, ty = read_name(cx, entry) if not cx.expr_level else cx.expr(entry)
            if ty is TID_T or ty == TID_T or (ty._production == "ArrayType" and ty.dtype is DType.TASK_ID):
                # (trusted: the Var exprs.name read, at the entry: its span is the entry's)
                out.append(L.DepVar.make_trusted(expr, expr.span))
                continue
            raise _dep_entry_error(cx, entry, what)
        if isinstance(entry, ast.Constant) and entry.value is None:
            continue
        if isinstance(entry, ast.Subscript) and submit_tuples.is_tuple_name(cx, entry.value):  # r[k]
            expr, ty = submit_tuples.element(cx, entry)
            if ty != TID_T:
                raise cx.error(f"'{ast.unparse(entry)}' is a {type_text(ty)}, not the TaskId of "
                               f"'{entry.value.id}' ({entry.value.id}[-1])", entry)
            out.append(L.DepVar.make(expr, span=cx.span(entry)))
            continue
        if isinstance(entry, ast.Subscript):
            arr, aty = cx.expr(entry.value)
            if aty._production != "ArrayType" or aty.dtype is not DType.TASK_ID:
                raise cx.error("deps= entries arr[i] need a TaskId array", entry.value)
            index, ity = cx.expr(entry.slice)
            if ity._production != "ScalarType" or not ity.dtype.is_int:
                raise cx.error("an array index must be an integer", entry.slice)
            out.append(L.DepItem.make(arr, index, span=cx.span(entry)))
            continue
        raise _dep_entry_error(cx, entry, what)
    return out


def _dep_entry_error(cx: FunctionContext, entry: ast.expr, what: str) -> UserError:
    return cx.error(
        f"'{what}' deps= entries must be a TaskId variable, a TaskId array, arr[i] or None; "
        f"got {quoted(short_source(entry))}",
        entry,
    )


@dsl_op("system.task_dummy", BINDING, misplaced={
    STATEMENT: "assign the barrier's TaskId: b = pl.system.task_dummy(deps=[...])",
})
def task_dummy(cx: FunctionContext, call: ast.Call, target: ast.Name, stmt: ast.stmt) -> list[Any]:
    """``b = pl.system.task_dummy(deps=[...])``: a barrier task."""
    deps = dummy_deps(cx, call)
    return [L.Dummy.make(cx.bind(target.id, TID_T, target), deps, span=cx.span(call))]


def dummy_deps(cx: FunctionContext, call: ast.Call) -> list[Any]:
    if call.args:
        raise cx.error("pl.system.task_dummy takes only deps=[...]", call.args[0])
    deps_node = None
    for kw in call.keywords:
        if kw.arg != "deps":
            raise cx.error(f"pl.system.task_dummy has no keyword argument '{kw.arg}'", kw.value)
        deps_node = kw.value
    if deps_node is None:
        raise cx.error("pl.system.task_dummy requires deps=[...] (use deps=[] for none)", call)
    return dep_list(cx, deps_node, "task_dummy")


@dsl_op("system.task_invalid", VALUE)
def task_invalid(cx: FunctionContext, call: ast.Call, _args: None) -> tuple[Any, Any]:
    if call.args or call.keywords:
        raise cx.error("pl.system.task_invalid() takes no arguments", call)
    return L.NoTask.make(), TID_T


def _argument_form(call: ast.Call) -> Any:
    """The form that reads ``call`` wrapping a task argument (``pl.no_dep(t)``), if it is one."""
    spelled = dsl_call(call)
    op = OPS.get(spelled) if spelled is not None else None
    return op.forms.get(ARGUMENT) if op is not None else None


def keyword_error(cx: FunctionContext, callee: str, kw: ast.keyword, params: Any, param_hint: str | None = None,
                  hint: str | None = None) -> UserError:
    """The error of a keyword argument ``kw`` in a call of ``callee`` (``kernel 'k'``, ``inline
    function 'f'``) whose parameters are ``params``: the DSL passes arguments by position, so one
    naming a parameter (as Python allows) is told its position (``param_hint``), another refused
    (``hint``)."""
    names = [p.name for p in params]
    if kw.arg in names:
        return cx.error(f"{callee} does not accept keyword arguments: '{kw.arg}' is its parameter "
                        f"{names.index(kw.arg) + 1}, pass it by position", kw.value, param_hint)
    return cx.error(f"{callee} does not accept keyword argument '{kw.arg}'", kw.value, hint)


def _signature_hint(sig: KernelSig) -> str:
    params = ", ".join(f"{p.name}: {p.dir.name}" for p in sig.params)
    return f"{sig.name}({params})"


PREDICATE_REFUSED = (
    "{what}(predicate=...) is not supported: a dispatch predicate makes the runtime skip the task when a "
    "tensor element compared with a constant is false (L0TaskPredicate, reference-behaviour.md section 10.5). "
    "nanopass does not model a task that may not run: its interpreters and hazard checker run every task "
    "submitted, and none of its dependency passes orders the predicate's read of the tensor element; and the "
    "runtime API the C++ is written for (runtime-api.md) has no predicate type and no call that sets one"
)


def refuse_predicate(cx: FunctionContext, node: ast.expr | None, what: str) -> None:
    """``predicate=`` of a task form: None (or False, the existing DSL's default) only."""
    if node is not None and not (isinstance(node, ast.Constant) and node.value in (None, False)):
        raise cx.error(PREDICATE_REFUSED.format(what=what), node,
                       hint="branch on the element instead: if pl.tensor.read(t, [i]) > 0: ...")
