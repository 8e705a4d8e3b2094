"""Calls of ``@pl.function(type=pl.FunctionType.Inline)`` functions: ``y = self.f(args)``, tuple
results, or a statement ``self.f(args)`` (reference-surface.md section 5).

A call is replaced by a copy of the function's body, read in the caller's place: each parameter
is the actual argument (a rebound ``pl.Out``/``pl.InOut`` parameter rebinds the caller's
variable), each local variable gets the fresh name ``<name>_inline<k>`` with one counter per
orchestration function (the first expansion's locals get 0, the next 1, ...), and the one trailing
``return`` assigns the call's targets. Inline functions may call kernels and other inline
functions (a cycle is a user error), create tensors, use loops and hold ``pl.at`` / ``pl.spmd``
blocks (outlined in the caller, as the reference outlines after inlining: ``<caller>_incore_<k>``);
they produce no kernel and no kernel id. Every other call of a ``self.`` method is a kernel call (``submits.kernel_call``).
"""

from __future__ import annotations

import ast
import copy
from typing import TYPE_CHECKING, Any

from nanopass.inline_copies import InlineCopy
from nanopass.languages.terms import ParamDir
from nanopass.passes.naming import inline_copy_name

from ..names import dsl_call, self_method
from ..registry import ARGUMENT, OPS
from .inline_rebinding import rebindings
from .submits import kernel_call, keyword_error, task_arg

if TYPE_CHECKING:
    from ..context import FunctionContext

_EXPANDING = "_inline_stack"  # FunctionContext attribute: the inline functions being expanded, outermost first
_COUNTER = "_inline_count"  # FunctionContext attribute: expansions so far (the <k> of the next one)
_COPY = "_inline_copy"  # FunctionContext attribute: the record of the innermost copy being read (None: none is)
# FunctionContext attribute: the copies being read, outermost first; the innermost holds every
# statement that can read a name the copy binds (its locals are renamed apart from the caller's)
INLINED_BODIES = "_inlined_bodies"
# FunctionContext attribute, beside INLINED_BODIES: for each copy, the statement of its call (in the
# body around the copy) and the names the copy binds of its own (renamed); every other name it
# binds is the caller's variable, which code after the call may read
INLINED_CALLS = "_inlined_calls"


def self_call(cx: FunctionContext, call: ast.Call, targets: list[ast.expr] | None, stmt: ast.stmt,
              name: str | None = None) -> list[Any]:
    """The statements of ``self.f(...)``: its inlined body when ``f`` is an inline function, else
    one kernel task. ``targets`` is None for a call written as a statement; ``name``: ``f`` when
    the caller has read it (``names.self_method``)."""
    if name is None:
        name = self_method(call.func)
    fdef = cx.program.inlines.get(name)
    if fdef is None:
        return [kernel_call(cx, call, targets, stmt, name)]
    return expand(cx, fdef, call, targets, stmt)


def expand(
    cx: FunctionContext, fdef: ast.FunctionDef, call: ast.Call, targets: list[ast.expr] | None, stmt: ast.stmt
) -> list[Any]:
    stack: list[str] = getattr(cx, _EXPANDING, None) or []
    if fdef.name in stack:
        cycle = " -> ".join([*stack[stack.index(fdef.name):], fdef.name])
        raise cx.error(f"inline function '{fdef.name}' calls itself ({cycle})", call,
                       hint="an inline function is copied into its caller: it cannot recurse")
    params = cx.program.inline_params(fdef)
    for kw in call.keywords:
        raise keyword_error(cx, f"inline function '{fdef.name}'", kw, params)
    if len(call.args) != len(params):
        raise cx.error(f"inline function '{fdef.name}' expects {len(params)} argument(s), got {len(call.args)}", call)
    for arg, param in zip(call.args, params):
        if type(arg) is ast.Call and _wraps_argument(arg):
            raise cx.error(f"pl.{dsl_call(arg)} applies to task arguments, not to an inline function's", arg)
        task_arg(cx, arg, param, fdef.name)  # checks the argument against the parameter's type

    body = list(fdef.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(
        body[0].value.value, str
    ):
        body = body[1:]  # docstring
    returned = _trailing_return(cx, fdef, body)
    if returned is not None:
        body = body[:-1]
    results = cx.program.inline_results(fdef)
    if results and returned is None:
        raise cx.error(f"inline function '{fdef.name}' declares a return type but does not end with a return "
                       "statement", fdef)

    _warn_of_rebindings(cx, fdef, params, call, targets)
    k = getattr(cx, _COUNTER, 0)
    setattr(cx, _COUNTER, k + 1)
    renamer = _Renamer(cx, fdef, params, call.args, k)
    copied = [renamer.visit(copy.deepcopy(s)) for s in body]
    if targets is not None:
        copied += _assign_results(cx, fdef, returned, renamer, targets, stmt, len(results))

    enclosing: InlineCopy | None = getattr(cx, _COPY, None)
    record = InlineCopy(
        fdef.name, cx.filename, (fdef.body[0].lineno, fdef.end_lineno or fdef.body[-1].lineno), cx.span(call),
        tuple((param.name, arg.id) for param, arg in zip(params, call.args) if type(arg) is ast.Name),
        tuple((renamed, name) for name, renamed in renamer.locals.items()), enclosing)
    cx.program.inline_copies.append(record)
    setattr(cx, _COPY, record)
    setattr(cx, _EXPANDING, [*stack, fdef.name])
    bodies: list[list[ast.stmt]] = getattr(cx, INLINED_BODIES, None) or []
    calls: list[tuple[ast.stmt, frozenset[str]]] = getattr(cx, INLINED_CALLS, None) or []
    setattr(cx, INLINED_BODIES, [*bodies, copied])
    setattr(cx, INLINED_CALLS, [*calls, (stmt, frozenset(renamer.locals.values()))])
    cx.enter(call)
    try:
        return cx.block(copied)
    finally:
        cx.leave()
        setattr(cx, _EXPANDING, stack)
        setattr(cx, _COPY, enclosing)
        setattr(cx, INLINED_BODIES, bodies)
        setattr(cx, INLINED_CALLS, calls)


def _warn_of_rebindings(cx: FunctionContext, fdef: ast.FunctionDef, params: list[Any], call: ast.Call,
                        targets: list[ast.expr] | None) -> None:
    """Warn of each place where ``fdef`` rebinds a parameter to another tensor (``inline_rebinding``)
    when this call passes it a variable the call's results do not assign: §5 rebinds that variable
    with it, which Python would not do. Each place is warned of once, naming the first such call."""
    moves = rebindings(cx.program, fdef)
    assigned = {t.id for t in targets or () if isinstance(t, ast.Name)}
    moved = [(target, param, arg) for param, arg in zip(params, call.args)
             if isinstance(arg, ast.Name) and arg.id not in assigned
             for target in moves.get(param.name, ())
             if id(target) not in cx.program.rebindings_warned]
    for target, param, arg in sorted(moved, key=lambda m: (m[0].lineno, m[0].col_offset)):
        cx.program.rebindings_warned.add(id(target))
        cx.program.warn(
            f"inline function '{fdef.name}' rebinds its parameter '{param.name}' to another tensor: the call "
            f"at line {call.lineno} substitutes its variable '{arg.id}' for '{param.name}' (reference-surface.md "
            f"section 5), so '{arg.id}' names that tensor after the call, where Python would leave it unchanged",
            target, hint=f"bind the new tensor to a variable of '{fdef.name}' and return it, assign the call's "
                         f"result to '{arg.id}', or write into '{param.name}' in place (a kernel's Out/InOut "
                         "argument, pl.assemble)")


def _trailing_return(cx: FunctionContext, fdef: ast.FunctionDef, body: list[ast.stmt]) -> ast.Return | None:
    """The function's one ``return``, which must be its last statement (None when it has none)."""
    last = body[-1] if body else None
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        if isinstance(node, ast.Return) and node is not last:
            raise cx.error(f"inline function '{fdef.name}' may only return at its end", node,
                           hint="one trailing return statement is allowed")
    return last if isinstance(last, ast.Return) else None


def _assign_results(
    cx: FunctionContext, fdef: ast.FunctionDef, returned: ast.Return | None, renamer: _Renamer,
    targets: list[ast.expr], stmt: ast.stmt, declared: int,
) -> list[ast.stmt]:
    """``target_i = value_i`` for the call's targets; through temporaries when a value reads a target
    assigned before it (the assignment is parallel, as a tuple assignment is)."""
    values = []
    if returned is not None and returned.value is not None:
        node = renamer.visit(copy.deepcopy(returned.value))
        values = list(node.elts) if isinstance(node, ast.Tuple) else [node]
    if len(values) != len(targets) or (declared and declared != len(values)):
        raise cx.error(f"inline function '{fdef.name}' returns {len(values)} value(s) but {len(targets)} name(s) "
                       "receive them", stmt)
    for target in targets:
        if not isinstance(target, ast.Name):
            raise cx.error("results must be received by plain variable names", target)
    assigned: set[str] = set()
    clash = False
    for target, value in zip(targets, values):
        clash |= any(isinstance(n, ast.Name) and n.id in assigned for n in ast.walk(value))
        assigned.add(target.id)
    out: list[ast.stmt] = []
    if clash:
        temps = [renamer.fresh(f"ret{i}", returned) for i in range(len(values))]
        out += [_located(ast.Assign([ast.Name(t, ast.Store())], v), returned) for t, v in zip(temps, values)]
        values = [ast.Name(t, ast.Load()) for t in temps]
    for target, value in zip(targets, values):
        if isinstance(value, ast.Name) and value.id == target.id:
            continue  # y = self.f(..., y) returning its Out parameter: y is already the result
        out.append(_located(ast.Assign([ast.Name(target.id, ast.Store())], value), target))
    return out


def _located(node: ast.stmt, where: ast.AST) -> ast.stmt:
    for sub in ast.walk(node):
        ast.copy_location(sub, where)
    return node


class _Renamer(ast.NodeTransformer):
    """Parameters -> the actual arguments (a variable located where the body reads the parameter,
    so that the copy's positions are all the function's: outlining orders a copy's uses by
    position); names the body binds -> ``<name>_inline<k>``; other names (module constants,
    ``self``, ``pl``) as written."""

    def __init__(self, cx: FunctionContext, fdef: ast.FunctionDef, params: list[Any], args: list[ast.expr], k: int):
        self.cx = cx
        self.fdef = fdef
        self.k = k
        self.args = {p.name: a for p, a in zip(params, args)}
        self.dirs = {p.name: p.dir for p in params}
        self.locals: dict[str, str] = {}
        for node in ast.walk(ast.Module(body=fdef.body, type_ignores=[])):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id not in self.args:
                self.locals.setdefault(node.id, self.fresh(node.id, node))

    def fresh(self, name: str, node: ast.AST) -> str:
        renamed = inline_copy_name(name, self.k)
        if self.cx.lookup(renamed) is not None:
            raise self.cx.error(f"inline function '{self.fdef.name}': its variable '{name}' becomes '{renamed}', "
                                "which the caller already uses", node)
        return renamed

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in self.args:
            arg = self.args[node.id]
            if isinstance(node.ctx, ast.Store):
                if self.dirs[node.id] is ParamDir.In:
                    raise self.cx.error(
                        f"inline function '{self.fdef.name}' assigns its parameter '{node.id}'", node,
                        hint="only pl.Out and pl.InOut parameters may be re-assigned (the caller's variable is)")
                if not isinstance(arg, ast.Name):
                    raise self.cx.error(f"inline function '{self.fdef.name}' re-assigns parameter '{node.id}': "
                                        "pass a variable", arg)
                return ast.copy_location(ast.Name(arg.id, ast.Store()), node)
            if type(arg) is ast.Name:  # (at the parameter's use: the copy's positions are the function's)
                return ast.copy_location(ast.Name(arg.id, ast.Load()), node)
            return copy.deepcopy(arg)
        if node.id in self.locals:
            return ast.copy_location(ast.Name(self.locals[node.id], node.ctx), node)
        if self.cx.lookup(node.id) is not None:
            raise self.cx.error(
                f"inline function '{self.fdef.name}' reads '{node.id}', which is neither its parameter nor its "
                "variable, and the caller has a variable of that name", node,
                hint="pass it as a parameter, or rename the caller's variable")
        return node


def _wraps_argument(call: ast.Call) -> bool:
    spelled = dsl_call(call)
    op = OPS.get(spelled) if spelled is not None else None
    return op is not None and ARGUMENT in op.forms
