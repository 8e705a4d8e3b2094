"""Blocks outlined into kernels: ``with pl.at(level=pl.Level.CORE_GROUP, ...) [as tid]:``
(reference-surface.md section 3); ``with pl.spmd(...)`` (``spmd``) outlines the same way.

A block becomes one new InCore kernel (named ``name_hint``, else ``<function>_incore_<k>``, k
counting the function's outlined blocks from 0) and one task in its place. The kernel's parameters
are the variables the block reads from outside it: tensors it writes through ``pl.assemble`` /
``pl.store`` are InOut, the other tensors In, scalars scalar parameters; In parameters first, then
InOut, each in order of first use. Its results are the tensors the block defines that are used
after it (each a new tensor: ``materialize_result_buffers`` gives it a buffer ``ret<i>__out`` the
caller creates), then the InOut parameters, which the task rebinds as a kernel call does. The
block's body is the kernel's body, summarized as any kernel's is (``kernels.KernelSummary``).
``dumps=[t, ...]`` marks tensors the block captures for the runtime's dump (as a ``pl.dump_tag`` on
one does); ``allow_early_resolve=True`` sets the task's flag and, as ``deps=`` does, makes it a submit.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nanopass.errors import quoted
from nanopass.languages import surface as S
from nanopass.languages.terms import DType, FuncKind, ParamDir

from ..kernels import KernelSummary
from ..names import attr_path, dsl_call, self_method
from ..registry import CONTEXT, dsl_op
from ..source import short_source
from ..type_reader import TID_T
from .debug_tags import dump_positions
from .submits import dep_list, kernel_sig

if TYPE_CHECKING:
    from ..context import FunctionContext

L = S.LANGUAGE

# Tile and tensor operations whose result has the type of their first tensor operand.
ELEMENTWISE = frozenset({
    "add", "sub", "mul", "div", "maximum", "minimum", "max", "min", "exp", "log", "sqrt", "rsqrt", "abs", "neg",
    "relu", "recip", "adds", "subs", "muls", "divs", "move", "row_expand_mul", "col_expand_mul",
    "tensor.add", "tensor.sub", "tensor.mul", "tensor.div", "tensor.exp", "tensor.maximum", "tensor.minimum",
})
WRITES = {"assemble": 0, "tensor.assemble": 0, "store": 2, "tile.store": 2}  # op -> the written tensor's argument


@dataclass
class Outline:
    """What a block reads, writes and defines, in order of first use."""

    reads: list[str] = field(default_factory=list)  # outer variables read (In or scalar params)
    writes: list[str] = field(default_factory=list)  # outer tensors written (InOut params)
    overwritten: set[str] = field(default_factory=set)  # of those, the ones a Group's kernel writes first (Out)
    defined: dict[str, ast.AST] = field(default_factory=dict)  # block variables -> first assignment
    types: dict[str, Any] = field(default_factory=dict)  # block variables -> their type (None: unknown)


@dsl_op("at", CONTEXT, binds_as=True)
def at(cx: FunctionContext, stmt: ast.With, call: ast.Call) -> list[Any]:
    """``with pl.at(level=pl.Level.CORE_GROUP, ...) [as tid]:``: the block outlined into a kernel."""
    names = ("level", "role")
    keywords = ("optimizations", "deps", "no_dep_args", "dumps", "allow_early_resolve", "name_hint", "windowize")
    args = _bind(cx, call, "at", names, keywords)
    level = args.get("level")
    if level is None:
        raise cx.error("pl.at needs level=pl.Level.CORE_GROUP", call)
    if (attr_path(level) or [""])[-1] != "CORE_GROUP":
        raise cx.error(f"pl.at(level={short_source(level)}) is not supported: only pl.Level.CORE_GROUP blocks "
                       "are outlined into kernels", level)
    return outline_block(cx, stmt, call, args, what="pl.at")


def outline_block(cx: FunctionContext, stmt: ast.With, call: ast.Call, args: dict[str, ast.expr], what: str,
                  launch: Any = None, local: tuple[str, ...] = (), kind: FuncKind = FuncKind.InCore) -> list[Any]:
    """The task (and kernel) of block ``stmt`` of a ``with`` whose arguments are ``args``: a kernel of
    ``kind`` (a ``Group`` launches the kernels the block calls); ``launch`` adds the task's launch
    spec; ``local`` names the block's own variables that are not assigned in it (a loop's index)."""
    _refuse_unsupported(cx, args, what)
    if getattr(cx, "_inline_stack", None):
        raise cx.error(f"a {what} block inside an inline function is not supported", stmt,
                       hint="put the block in the orchestration function, or make the inline function a kernel")
    name = _kernel_name(cx, args.get("name_hint"), stmt)
    outline = analyze(cx, stmt, local, calls=kind is FuncKind.Group, what=what)
    escaping = _escaping(cx, stmt, outline)
    params, results, outs = [], [], []
    for var in [*outline.reads, *outline.writes]:
        binding = cx.lookup(var)
        ty = binding.type
        if ty._production == "TensorType":
            direction = ParamDir.In if var not in outline.writes else (
                ParamDir.Out if var in outline.overwritten else ParamDir.InOut)
        elif ty._production == "ScalarType" and ty.dtype is not DType.TASK_ID:
            direction = ParamDir.In
        else:
            raise cx.error(f"{what} block uses '{var}', a {'TaskId' if ty == TID_T else 'TaskId array'}: a kernel "
                           "cannot take it", _first_use(stmt, var))
        params.append(L.Param(var, ty, direction, span=cx.span(stmt)))
    for var in escaping:
        ty = outline.types.get(var)
        node = outline.defined[var]
        if ty is None:
            raise cx.error(f"cannot tell the type of '{var}', which the {what} block defines and later code uses",
                           node, hint=f"annotate it: {var}: pl.Tensor[[...], dtype] = ...")
        if ty._production != "TensorType":
            raise cx.error(f"'{var}' is computed inside the {what} block (a kernel) and used after it: only "
                           "tensors leave a kernel", node)
        results.append((var, ty, node))
    results += [(var, cx.lookup(var).type, stmt) for var in outline.writes]

    summary = KernelSummary(cx.program, cx.types)
    body: list[Any] = []
    summary.block(stmt.body, body)
    body.append(L.KReturn([L.Var(var) for var, _ty, _node in results], span=cx.span(stmt)))
    cx.program.add_outlined(name, kind, params, [ty for _v, ty, _n in results], body, stmt)
    kernel_sig(cx, name, stmt)

    no_dep = _no_dep_args(cx, args.get("no_dep_args"), outline, what)
    task_args = [L.Arg.make(L.Var(p.name, span=cx.span(stmt)), p.name in no_dep, None, span=cx.span(stmt))
                 for p in params]
    deps = dep_list(cx, args["deps"], what) if "deps" in args else []
    early_resolve = _early_resolve(cx, args.get("allow_early_resolve"))
    for var, ty, node in results:
        outs.append(cx.bind(var, ty, node))
    tid = None
    target = stmt.items[0].optional_vars
    if target is not None:
        if not isinstance(target, ast.Name):
            raise cx.error(f"'with {what}(...) as' takes one name (the task's TaskId)", target)
        tid = cx.bind(target.id, TID_T, target)
    elif deps or early_resolve:
        tid = cx.bind("_", TID_T, stmt)  # dependencies or early resolve make the block a submit (its TaskId unused)
    for var in outline.defined:
        if var not in escaping and cx.lookup(var) is None:
            cx.closed[var] = f"defined inside the {what} block at line {stmt.lineno}, which became kernel '{name}'"
    dumps = dump_positions(cx, task_args, _none_to_absent(args.get("dumps")), what)
    task = L.Task.make(outs, tid, name, task_args, dumps, early_resolve, deps, None, span=cx.span(stmt))
    return [task if launch is None else launch(task)]


def analyze(cx: FunctionContext, stmt: ast.With, local: tuple[str, ...] = (), calls: bool = False,
            what: str = "pl.at") -> Outline:
    """The outer variables ``stmt``'s block reads and writes and the variables it defines, in order;
    with ``calls``, its statements are kernel calls ``x = self.k(...)`` (a Group's body)."""
    out = Outline()
    for var in local:
        out.defined[var] = stmt
        out.types[var] = None

    def read(node: ast.AST) -> None:
        for sub in _loads(node):
            if sub.id in out.defined or sub.id in out.reads or sub.id in out.writes:
                continue
            if cx.lookup(sub.id) is not None:
                out.reads.append(sub.id)

    def write(var: str) -> None:
        if var not in out.defined and cx.lookup(var) is not None and var not in out.writes:
            if var in out.reads:
                out.reads.remove(var)
            out.writes.append(var)

    def define(target: ast.AST, ty: Any) -> None:
        for sub in ast.walk(target):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                out.defined.setdefault(sub.id, sub)
                out.types[sub.id] = ty if isinstance(target, ast.Name) else None

    def visit(stmts: list[ast.stmt]) -> None:
        for s in stmts:
            if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)):
                value = s.value
                if value is None:
                    continue
                seen = {*out.reads, *out.writes}
                read(value)
                written = _written_tensor(value)
                if written is not None:
                    write(written)
                kernel = self_method(value.func) if isinstance(value, ast.Call) else None
                if (kernel is not None) != calls or (calls and kernel not in cx.program.kernels):
                    expected = "kernel calls self.k(...)" if calls else "tile and tensor operations"
                    raise cx.error(f"a {what} block holds {expected} only", value)
                if kernel is not None:
                    for var in _kernel_call_writes(cx, s, value, write, define):
                        if var not in seen and cx.lookup(var) is not None:
                            out.overwritten.add(var)
                    continue
                targets = s.targets if isinstance(s, ast.Assign) else [] if isinstance(s, ast.Expr) else [s.target]
                for target in targets:
                    if isinstance(target, ast.Name) and target.id == written:
                        continue  # x = pl.assemble(x, ...): x is the written tensor itself
                    ty = cx.types.value_type(s.annotation) if isinstance(s, ast.AnnAssign) else _type_of(
                        cx, value, out)
                    define(target, ty)
            elif isinstance(s, ast.For):
                read(s.iter)
                define(s.target, None)
                visit(s.body)
            elif isinstance(s, ast.If):
                read(s.test)
                visit(s.body)
                visit(s.orelse)
            elif isinstance(s, ast.With):
                for item in s.items:
                    read(item.context_expr)
                visit(s.body)
            elif isinstance(s, ast.Pass):
                continue
            else:
                raise cx.error(f"a kernel block cannot hold this statement: {quoted(short_source(s))}", s)

    visit(stmt.body)
    return out


def _kernel_call_writes(cx: FunctionContext, s: ast.stmt, call: ast.Call, write: Any, define: Any) -> list[str]:
    """``x = self.k(..., x)`` in a Group's block: the outer tensors passed as the kernel's Out/InOut
    parameters are written (a target that is one of them is that tensor); other targets are defined.
    Returns the variables passed as Out parameters."""
    sig = cx.program.kernels[self_method(call.func)]
    passed = [a.id if isinstance(a, ast.Name) else None for a in call.args]
    for param, var in zip(sig.params, passed):
        if param.dir is not ParamDir.In and var is not None:
            write(var)
    overwritten = [var for param, var in zip(sig.params, passed) if param.dir is ParamDir.Out and var is not None]
    targets = s.targets if isinstance(s, ast.Assign) else [] if isinstance(s, ast.Expr) else [s.target]
    results = [passed[i] for i, p in enumerate(sig.params) if p.dir is not ParamDir.In]
    names = [t for t in targets if isinstance(t, ast.Name)]
    for target, ty in zip(names, sig.results):
        if target.id not in results:
            define(target, ty)
    return overwritten


def _written_tensor(value: ast.expr) -> str | None:
    """The variable ``pl.assemble(t, ...)`` / ``pl.store(tile, offsets, t)`` writes, if ``value`` is one."""
    op = dsl_call(value)
    index = WRITES.get(op) if op is not None else None
    if index is None:
        return None
    args = list(value.args)
    for kw in value.keywords:
        if kw.arg in ("target", "output_tensor", "tensor"):
            args[index:index] = [kw.value]
    target = args[index] if index < len(args) else None
    return target.id if isinstance(target, ast.Name) else None


def _type_of(cx: FunctionContext, value: ast.expr, out: Outline) -> Any:
    """The type of a block's value where it can be told without reading kernel code (None: unknown)."""

    def of(node: ast.expr) -> Any:
        if isinstance(node, ast.Name):
            if node.id in out.types:
                return out.types[node.id]
            binding = cx.lookup(node.id)
            return binding.type if binding is not None else None
        op = dsl_call(node)
        if op is None:
            return None
        if op in WRITES:
            written = _written_tensor(node)
            return of(ast.Name(written, ast.Load())) if written is not None else None
        if op in ELEMENTWISE:
            for arg in node.args:
                ty = of(arg)
                if ty is not None and ty._production == "TensorType":
                    return ty
            return None
        if op in ("create_tensor", "tensor.create") and node.args:
            dtype = next((kw.value for kw in node.keywords if kw.arg == "dtype"), None)
            if dtype is None and len(node.args) > 1:
                dtype = node.args[1]
            if dtype is None:
                return None
            return L.TensorType(cx.types.shape(node.args[0]), cx.types.dtype(dtype))
        return None

    return of(value)


def _escaping(cx: FunctionContext, stmt: ast.With, outline: Outline) -> list[str]:
    """The variables the block defines that code after it reads before assigning them (in definition
    order). "After" is textual: the statements that follow the block, in evaluation order."""
    end = (stmt.end_lineno, stmt.end_col_offset)
    first: dict[str, bool] = {}  # name -> whether its first use after the block reads it
    for name in _uses_in_order(cx.fdef.body):
        if (name.lineno, name.col_offset) > end and name.id not in first:
            first[name.id] = isinstance(name.ctx, ast.Load)
    return [var for var in outline.defined if first.get(var)]


def _uses_in_order(stmts: list[ast.stmt]):
    """The ``Name`` nodes of ``stmts`` in evaluation order (an assignment's value before its targets)."""
    for s in stmts:
        if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            if isinstance(s, ast.AugAssign):
                yield from _names(s.target, ast.Load)
            if s.value is not None:
                yield from _names(s.value)
            for target in s.targets if isinstance(s, ast.Assign) else [s.target]:
                yield from _names(target)
        elif isinstance(s, ast.For):
            yield from _names(s.iter)
            yield from _names(s.target)
            yield from _uses_in_order(s.body)
        elif isinstance(s, ast.If):
            yield from _names(s.test)
            yield from _uses_in_order(s.body)
            yield from _uses_in_order(s.orelse)
        elif isinstance(s, ast.With):
            for item in s.items:
                yield from _names(item.context_expr)
            yield from _uses_in_order(s.body)
        else:
            yield from _names(s)


def _names(node: ast.AST, ctx: type | None = None):
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and (ctx is None or isinstance(sub.ctx, ctx)):
            yield sub


def _loads(node: ast.AST) -> list[ast.Name]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]


def _first_use(stmt: ast.With, var: str) -> ast.AST:
    return next((n for n in _loads(ast.Module(body=stmt.body, type_ignores=[])) if n.id == var), stmt)


def _bind(cx: FunctionContext, call: ast.Call, what: str, positional: tuple[str, ...],
          keywords: tuple[str, ...]) -> dict[str, ast.expr]:
    if len(call.args) > len(positional):
        raise cx.error(f"pl.{what} takes at most {len(positional)} positional argument(s)", call.args[len(positional)])
    args = dict(zip(positional, call.args))
    for kw in call.keywords:
        if kw.arg not in positional + keywords:
            raise cx.error(f"pl.{what} has no keyword argument '{kw.arg}'", kw.value)
        if kw.arg in args:
            raise cx.error(f"pl.{what} got '{kw.arg}' twice", kw.value)
        args[kw.arg] = kw.value
    return args


def _refuse_unsupported(cx: FunctionContext, args: dict[str, ast.expr], what: str) -> None:
    node = args.get("windowize")
    if node is not None and not (isinstance(node, ast.Constant) and node.value is False):
        raise cx.error(f"{what}(windowize=...) is not supported", node)
    node = args.get("optimizations")
    if node is not None and not (isinstance(node, (ast.List, ast.Tuple)) or (
            isinstance(node, ast.Constant) and node.value is None)):
        raise cx.error(f"{what}(optimizations=...) takes a list literal", node)


def _early_resolve(cx: FunctionContext, node: ast.expr | None) -> bool:
    """``allow_early_resolve=``: True or False (None: not given)."""
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return False
    return cx.program._bool_literal(node, "allow_early_resolve")


def _none_to_absent(node: ast.expr | None) -> ast.expr | None:
    return None if isinstance(node, ast.Constant) and node.value is None else node


def _kernel_name(cx: FunctionContext, hint: ast.expr | None, stmt: ast.With) -> str:
    count = getattr(cx, "_outlined_count", 0)
    cx._outlined_count = count + 1
    if hint is None or (isinstance(hint, ast.Constant) and hint.value == ""):
        name = f"{cx.fdef.name}_incore_{count}"
        node: ast.AST = stmt
    elif isinstance(hint, ast.Constant) and isinstance(hint.value, str) and hint.value.isidentifier():
        name, node = hint.value, hint
    else:
        raise cx.error("name_hint= must be a string literal that is an identifier", hint)
    if name in cx.program.kernels or name in cx.program.inlines or any(
            f[0].name == name for f in cx.program.functions):
        raise cx.error(f"the outlined kernel's name '{name}' is already a function of program '{cx.src.name}'",
                       node, hint="give the block another name_hint=")
    return name


def _no_dep_args(cx: FunctionContext, node: ast.expr | None, outline: Outline, what: str) -> set[str]:
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return set()
    if not isinstance(node, (ast.List, ast.Tuple)):
        raise cx.error(f"{what}(no_dep_args=...) takes a list of tensor names", node)
    names = set()
    for entry in node.elts:
        if not isinstance(entry, ast.Name) or entry.id not in outline.reads + outline.writes:
            raise cx.error(f"no_dep_args= entries must name tensors the block uses from outside it, got "
                           f"{quoted(short_source(entry))}", entry)
        names.add(entry.id)
    return names
