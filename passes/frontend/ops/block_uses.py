"""What a block outlined into a kernel (``pl.at``, ``pl.spmd``, ``pl.cluster``) reads, writes and
defines: the outer variables become the kernel's parameters, the variables it defines and later
code reads its new results (``outlining.outline_block`` builds the kernel and the task from it).

A tensor the block writes (``pl.assemble`` / ``pl.store`` into it, or a Group's kernel call passing it
as an Out/InOut argument) is written; so is one written through a name that aliases it inside the
block: a loop carry whose init value is it (``for i, (acc,) in pl.range(n, init_values=(out,))``,
then ``acc = pl.store(tile, offsets, acc)``), the loop's result when the yield keeps the carry on
the same buffer, a plain copy ``y = acc``, and an if branch's ``pl.yield_`` of it. Such an alias used
after the block is the outer tensor (the task rebinds it), not a new result. A carry that starts on
one outer tensor and is yielded another buffer, and a name an if's branches alias to different
tensors and the block then writes, are located user errors: the kernel's parameter would not be one
buffer.

Every name the block reads must be bound where it reads it: by the block on every path to the read
(a name one branch of an if binds is, where the other branch was taken, the outer variable of that
name if there is one: a read after the if reads the outer variable too; so is a name a loop's body
binds, after a loop that runs no iteration), else in the function
(a parameter, a variable before the block), else in Python's scope of the kernel body (``self``, a
module-level name, a builtin). Any other name is a located user error, "name 'yy' is not defined"
(a typo would otherwise be no parameter, and the task would not wait for the tensor meant).
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nanopass.errors import UserError, quoted
from nanopass.languages import surface as S
from nanopass.languages.terms import ParamDir
from nanopass.suggest import did_you_mean, one_edit_away

from ..names import dsl_call, self_method
from ..source import short_source
from ..type_reader import check_annotation

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
AMBIGUOUS = ""  # the alias of a name an if's branches, or a loop and its not running, bind to different buffers
BRANCHES = "the branches of an if"


@dataclass
class Outline:
    """What a block reads, writes and defines, in order of first use."""

    reads: list[str] = field(default_factory=list)  # outer variables read (In or scalar params)
    writes: list[str] = field(default_factory=list)  # outer tensors written (InOut params)
    overwritten: set[str] = field(default_factory=set)  # of those, the ones a Group's kernel writes first (Out)
    defined: dict[str, ast.AST] = field(default_factory=dict)  # block variables -> first assignment
    types: dict[str, Any] = field(default_factory=dict)  # block variables -> their type (None: unknown)
    aliases: dict[str, str] = field(default_factory=dict)  # block variables -> the outer tensor they are
    # block variables aliased AMBIGUOUS -> what binds them to different buffers (for the error)
    ambiguous: dict[str, str] = field(default_factory=dict)


def analyze(cx: FunctionContext, stmt: ast.With, local: tuple[str, ...] = (), calls: bool = False,
            what: str = "pl.at") -> Outline:
    """The outer variables ``stmt``'s block reads and writes and the variables it defines, in order;
    with ``calls``, its statements are kernel calls ``x = self.k(...)`` (a Group's body)."""
    out = Outline()
    # the names the block has bound on every path to the statement being read (a name an if binds
    # in one branch only is the outer variable where the other branch was taken, if there is one)
    bound = set(local)
    for var in local:
        out.defined[var] = stmt
        out.types[var] = None

    def outer(name: str) -> bool:
        return name not in bound and cx.lookup(name) is not None

    def root(node: ast.expr | None) -> str | None:
        """The outer tensor ``node`` (a name) is, if it is one or an alias of one."""
        if not isinstance(node, ast.Name):
            return None
        if node.id in out.aliases:
            return out.aliases[node.id]
        if outer(node.id) and cx.lookup(node.id).type._production == "TensorType":
            return node.id
        return None

    def read(node: ast.AST) -> None:
        for sub in _loads(node):
            if sub.id in bound or sub.id in out.reads or sub.id in out.writes:
                continue
            if cx.lookup(sub.id) is not None:
                out.reads.append(sub.id)
            elif not _bound_outside_function(cx, sub.id):
                raise _unbound(cx, sub, out)

    def write(var: str, node: ast.AST) -> None:
        name, var = var, out.aliases.get(var, var)
        if var == AMBIGUOUS:
            raise cx.error(f"{quoted(short_source(node))} writes a tensor {out.ambiguous.get(name, BRANCHES)} in "
                           f"this {what} block bind to different buffers: the kernel's parameter would not be one "
                           "buffer", node, hint="write each buffer under its own name")
        if not outer(var) or var in out.writes:
            return
        if var in out.reads:
            out.reads.remove(var)
        out.writes.append(var)

    def define(target: ast.AST, ty: Any, alias: str | None = None) -> None:
        for sub in ast.walk(target):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                out.defined.setdefault(sub.id, sub)
                bound.add(sub.id)
                out.types[sub.id] = ty if isinstance(target, ast.Name) else None
                out.aliases.pop(sub.id, None)
                out.ambiguous.pop(sub.id, None)
        if alias is not None and isinstance(target, ast.Name):
            out.aliases[target.id] = alias
            out.types[target.id] = cx.lookup(alias).type if alias != AMBIGUOUS else None

    def assignment(s: ast.stmt, carries: list[ast.Name] | None) -> None:
        value = s.value
        seen = {*out.reads, *out.writes}
        read(value)
        written = _written_tensor(value)
        if written is not None:
            write(written, value)
        kernel = self_method(value.func) if isinstance(value, ast.Call) else None
        if (kernel is not None) != calls or (calls and kernel not in cx.program.kernels):
            expected = "kernel calls self.k(...)" if calls else "tile and tensor operations"
            raise cx.error(f"a {what} block holds {expected} only", value)
        if kernel is not None:
            for var in _kernel_call_writes(cx, s, value, lambda v: write(v, value), define):
                if var not in seen and outer(var):
                    out.overwritten.add(var)
            return
        targets = s.targets if isinstance(s, ast.Assign) else [] if isinstance(s, ast.Expr) else [s.target]
        if dsl_call(value) == "yield_":
            names = targets[0].elts if targets and isinstance(targets[0], (ast.Tuple, ast.List)) else targets
            for k, (target, arg) in enumerate(zip(names, value.args)):
                alias = root(arg)
                if carries is not None and k < len(carries) and out.aliases.get(carries[k].id) != alias:
                    start = out.aliases.get(carries[k].id)
                    raise cx.error(
                        f"the loop carry '{carries[k].id}' starts as {quoted(start) if start else 'a tensor of the block'}"
                        f" and is yielded {quoted(short_source(arg))}, "
                        f"{'another tensor' if alias else 'a tensor of the block'}: outlined into a kernel, the "
                        f"carry would not be one buffer", arg, hint="yield the carry itself after writing into it")
                ty = out.types.get(carries[k].id) if carries is not None and k < len(carries) else _type_of(cx, arg, out)
                define(target, ty, alias)
            return
        for target in targets:
            if isinstance(target, ast.Name) and target.id == written:
                continue  # x = pl.assemble(x, ...): x is the written tensor itself
            ty = annotated(s) if isinstance(s, ast.AnnAssign) else _type_of(cx, value, out)
            define(target, ty, root(value) if isinstance(target, ast.Name) else None)

    def annotated(s: ast.AnnAssign) -> Any:
        """The type ``s`` declares, read as the function reads an annotation; one that computes a
        dimension names only variables from outside the block and is the value's type, where the
        block tells it."""
        ty, exact = cx.types.annotation(cx, s.annotation)
        if exact:
            inner = next((n for n in _loads(s.annotation) if n.id in out.defined), None)
            if inner is not None:
                raise cx.error(f"the annotation of {quoted(short_source(s.target))} computes a dimension from "
                               f"'{inner.id}', which this {what} block defines: the kernel's value would have a "
                               "shape the caller cannot compute", inner)
            inferred = _type_of(cx, s.value, out)
            if inferred is not None:
                ty = check_annotation(cx, ty, inferred, s, short_source(s.target), exact)
        return ty

    def loop(s: ast.For) -> None:
        read(s.iter)
        define(s.target, None)
        carries = _carries(s)
        inits = _init_values(s)
        for name, init in zip(carries, inits):
            alias = root(init)
            define(name, _type_of(cx, init, out) if alias is None else None, alias)
        aliases_before, bound_before = dict(out.aliases), set(bound)
        visit(s.body[:-1] if carries else s.body)
        # after a loop that may run no iteration, a name its body binds is still the outer variable of
        # that name where there is one (as after an if whose other branch was taken); a yield's targets
        # are the loop's results, bound whatever the trip count
        skippable = [name for name in bound - bound_before if cx.lookup(name) is not None and not _runs(s)]
        bound.difference_update(skippable)
        for name in sorted({*aliases_before, *out.aliases, *skippable}):
            if name in skippable or (aliases_before.get(name) != out.aliases.get(name) and not _runs(s)):
                out.aliases[name] = AMBIGUOUS  # which buffer the name is depends on the trip count
                out.types[name] = None
                out.ambiguous.setdefault(name, f"the loop at line {s.lineno} (which may run no iteration) and "
                                               "the code before it")
        if carries and isinstance(s.body[-1], (ast.Assign, ast.AnnAssign)) and dsl_call(s.body[-1].value) == "yield_":
            assignment(s.body[-1], carries)
        elif carries:
            visit(s.body[-1:])

    def branches(s: ast.If) -> None:
        read(s.test)
        before = dict(out.aliases)
        bound_before = set(bound)
        visit(s.body)
        then = dict(out.aliases)
        bound_then = set(bound)
        out.aliases.clear()
        out.aliases.update(before)
        bound.intersection_update(bound_before)
        visit(s.orelse)
        # bound after the if: in both branches, or in one with no outer variable of that name to read
        # (one with such a variable is the block's in one branch and the outer one in the other)
        one_branch = [name for name in bound ^ bound_then if cx.lookup(name) is not None]
        bound.update(bound_then)
        bound.difference_update(one_branch)
        for name in sorted({*then, *out.aliases}):
            if then.get(name) != out.aliases.get(name):
                out.aliases[name] = AMBIGUOUS  # which buffer the name is depends on the branch taken
                out.types[name] = None
                out.ambiguous.setdefault(name, BRANCHES)
        for name in one_branch:
            out.aliases[name] = AMBIGUOUS
            out.types[name] = None
            out.ambiguous.setdefault(name, BRANCHES)

    def visit(stmts: list[ast.stmt]) -> None:
        for s in stmts:
            if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)):
                if s.value is not None:
                    assignment(s, None)
            elif isinstance(s, ast.For):
                loop(s)
            elif isinstance(s, ast.If):
                branches(s)
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


def _bound_outside_function(cx: FunctionContext, name: str) -> bool:
    """Whether ``name``, read in a block and bound neither in it nor in the function's scope, is a
    name Python binds there all the same: ``self``, a module-level name (the DSL module, a
    constant; the kernel body keeps it) or a builtin."""
    return name == "self" or name in cx.src.closure or hasattr(builtins, name)


def _unbound(cx: FunctionContext, node: ast.Name, out: Outline) -> UserError:
    """The error for a name a block reads that nothing binds where it is read: it would be no
    parameter of the kernel, so the task would not wait for the tensor meant (a typo of one)."""
    if node.id in cx.closed:
        return cx.error(f"'{node.id}' is not visible here: it was {cx.closed[node.id]}", node,
                        hint="assign it before the loop or in both branches so that it is carried out")
    known = [*cx.visible, *cx.closed, *out.defined]  # (a closed name: one the fix would make escape)
    return cx.error(f"name '{node.id}' is not defined", node,
                    hint=did_you_mean(node.id, known) or one_edit_away(node.id, known))


def _runs(s: ast.For) -> bool:
    """Whether loop ``s`` runs at least one iteration whatever the inputs: ``range`` / ``pl.range`` /
    ``pl.parallel`` / ``pl.unroll`` of integer literals with a positive trip count."""
    call = s.iter
    if not (isinstance(call, ast.Call) and (dsl_call(call) in ("range", "parallel", "unroll")
                                            or isinstance(call.func, ast.Name) and call.func.id == "range")):
        return False
    bounds = [a.value if isinstance(a, ast.Constant) else None for a in call.args]
    if not 1 <= len(bounds) <= 3 or any(type(b) is not int for b in bounds) or (len(bounds) == 3 and not bounds[2]):
        return False
    return len(range(*bounds)) > 0


def _init_values(s: ast.For) -> list[ast.expr]:
    init = next((kw.value for kw in s.iter.keywords if kw.arg == "init_values"), None) \
        if isinstance(s.iter, ast.Call) else None
    return list(init.elts) if isinstance(init, (ast.Tuple, ast.List)) else []


def _carries(s: ast.For) -> list[ast.Name]:
    """The carry names of ``for i, (a, b) in pl.range(..., init_values=(...))`` (none without)."""
    if not _init_values(s) or not (isinstance(s.target, ast.Tuple) and len(s.target.elts) == 2
                                   and isinstance(s.target.elts[1], (ast.Tuple, ast.List))):
        return []
    return [n for n in s.target.elts[1].elts if isinstance(n, ast.Name)]
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
            return L.TensorType.make(cx.types.shape(node.args[0]), cx.types.dtype(dtype))
        return None

    return of(value)


def _loads(node: ast.AST) -> list[ast.Name]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]


def first_use(stmt: ast.With, var: str) -> ast.AST:
    return next((n for n in _loads(ast.Module(body=stmt.body, type_ignores=[])) if n.id == var), stmt)


