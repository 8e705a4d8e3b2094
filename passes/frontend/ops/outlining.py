"""Blocks outlined into kernels: ``with pl.at(level=pl.Level.CORE_GROUP, ...) [as tid]:``
(reference-surface.md section 3); ``with pl.spmd(...)`` (``spmd``) outlines the same way.

A block becomes one new InCore kernel (named ``name_hint``, else ``<function>_incore_<k>``, k
counting the function's outlined blocks from 0) and one task in its place; a named block read more
than once (an inline function's, a ``pl.unroll`` body's) is one kernel per shape of its copies
(``_named_kernel``). The kernel's parameters
are the variables the block reads from outside it (``block_uses``): tensors it writes through
``pl.assemble`` / ``pl.store``, directly or through a loop carry or copy of them, are InOut, the
other tensors In, scalars scalar parameters; In parameters first, then
InOut, each in order of first use. Its results are the tensors the block defines that are used
after it (each a new tensor: ``materialize_result_buffers`` gives it a buffer ``ret<i>__out`` the
caller creates), then the InOut parameters, which the task rebinds as a kernel call does; a name
the block aliases to an outer tensor (a loop's result on a carried store) is bound to it after the
task. The
block's body is the kernel's body, summarized as any kernel's is (``kernels.KernelSummary``).
``dumps=[t, ...]`` marks tensors the block captures for the runtime's dump (as a ``pl.dump_tag`` on
one does); ``allow_early_resolve=True`` sets the task's flag and, as ``deps=`` does, makes it a submit.
"""

from __future__ import annotations

import ast
import copy
from typing import TYPE_CHECKING, Any

from nanopass.errors import quoted
from nanopass.languages import surface as S
from nanopass.languages.terms import DType, FuncKind, ParamDir

from ..kernels import KernelSummary
from ..names import attr_path, dsl_call, self_method
from ..registry import CONTEXT, dsl_op
from ..source import short_source
from ..type_reader import TID_T
from .block_uses import AMBIGUOUS, BRANCHES, Outline, analyze, first_use
from .debug_tags import dump_positions
from .inlining import INLINED_BODIES, INLINED_CALLS
from .submits import dep_list, kernel_sig, refuse_predicate

if TYPE_CHECKING:
    from ..context import FunctionContext

L = S.LANGUAGE

@dsl_op("at", CONTEXT, binds_as=True)
def at(cx: FunctionContext, stmt: ast.With, call: ast.Call) -> list[Any]:
    """``with pl.at(level=pl.Level.CORE_GROUP, ...) [as tid]:``: the block outlined into a kernel."""
    names = ("level", "role")
    keywords = ("optimizations", "deps", "no_dep_args", "dumps", "allow_early_resolve", "name_hint", "windowize",
                "predicate")
    args = bind_arguments(cx, call, "at", names, keywords)
    level = args.get("level")
    if level is None:
        raise cx.error("pl.at needs level=pl.Level.CORE_GROUP", call)
    if (attr_path(level) or [""])[-1] != "CORE_GROUP":
        raise cx.error(f"pl.at(level={short_source(level)}) is not supported: only pl.Level.CORE_GROUP blocks "
                       "are outlined into kernels; the other levels make the existing compiler's hierarchy scopes, "
                       "whose meaning for an orchestration function is not documented", level,
                       hint="use level=pl.Level.CORE_GROUP, or write the block's tasks as kernel calls")
    return outline_block(cx, stmt, call, args, what="pl.at")


def outline_block(cx: FunctionContext, stmt: ast.With, call: ast.Call, args: dict[str, ast.expr], what: str,
                  launch: Any = None, local: tuple[str, ...] = (), kind: FuncKind = FuncKind.InCore) -> list[Any]:
    """The task (and kernel) of block ``stmt`` of a ``with`` whose arguments are ``args``: a kernel of
    ``kind`` (a ``Group`` launches the kernels the block calls); ``launch`` adds the task's launch
    spec; ``local`` names the block's own variables that are not assigned in it (a loop's index)."""
    _refuse_unsupported(cx, args, what)
    name, hint = _kernel_name(cx, args.get("name_hint"), stmt)
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
                           "cannot take it", first_use(stmt, var))
        params.append(L.Param.make(var, ty, direction, span=cx.span(stmt)))
    aliases = []  # block names used after it that are an outer tensor: bound to it after the task
    for var in escaping:
        ty = outline.types.get(var)
        node = outline.defined[var]
        if outline.aliases.get(var) == AMBIGUOUS:  # (the errors of a name leaving the block: at the read that needs it)
            raise cx.error(f"'{var}' is read here, after the {what} block, but {outline.ambiguous.get(var, BRANCHES)} "
                           f"in it bind it to different tensors (its definition at line {node.lineno})",
                           escaping[var], hint="pass each tensor out under its own name")
        if var in outline.aliases:
            aliases.append((var, outline.aliases[var], node))
            continue
        if ty is None:
            raise cx.error(f"cannot tell the type of '{var}', which the {what} block defines at line {node.lineno} "
                           "and this later code reads", escaping[var],
                           hint=f"annotate it at line {node.lineno}: {var}: pl.Tensor[[...], dtype] = ...")
        if ty._production != "TensorType":
            raise cx.error(f"'{var}' is computed inside the {what} block at line {node.lineno} (a kernel) and read "
                           "here, after it: only tensors leave a kernel", escaping[var])
        results.append((var, ty, node))
    results += [(var, cx.lookup(var).type, stmt) for var in outline.writes]

    summary = KernelSummary(cx.program, cx.types)
    body: list[Any] = []
    summary.block(stmt.body, body)
    # a result the block binds under the name of an outer variable it reads (``t = pl.add(t, x)``)
    # is a new tensor, not that In parameter: its return names no parameter, so that
    # ``materialize_result_buffers`` gives it a buffer of its own
    taken = {p.name for p in params}
    body.append(L.KReturn.make([L.KOther.make(f"{var} (rebound)") if var in taken and var not in outline.writes
                                else L.Var.make(var) for var, _ty, _node in results], span=cx.span(stmt)))
    shape = _kernel_shape(stmt, kind, params, results, local)
    name, made = _named_kernel(cx, name, hint, stmt, shape)
    if not made:
        cx.program.add_outlined(name, kind, params, [ty for _v, ty, _n in results], body, stmt)
    kernel_sig(cx, name, stmt)

    no_dep = _no_dep_args(cx, args.get("no_dep_args"), outline, what)
    task_args = [L.Arg.make(_argument(cx, p.name, stmt), p.name in no_dep, None, span=cx.span(stmt)) for p in params]
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
    bound = [L.Let.make(cx.bind(var, cx.lookup(outer).type, node), L.Var.make(outer, span=cx.span(node)), span=cx.span(node))
             for var, outer, node in aliases]
    for var in outline.defined:
        if var not in escaping and cx.lookup(var) is None:
            cx.closed[var] = f"defined inside the {what} block at line {stmt.lineno}, which became kernel '{name}'"
    dumps = dump_positions(cx, task_args, _none_to_absent(args.get("dumps")), what)
    task = L.Task.make(outs, tid, name, task_args, dumps, early_resolve, deps, None, span=cx.span(stmt))
    return [task if launch is None else launch(task), *bound]


def _escaping(cx: FunctionContext, stmt: ast.With, outline: Outline) -> dict[str, ast.Name]:
    """The variables the block defines that code after it reads before rebinding them (in
    definition order), each with the first such read: on a path from the block's end that did not
    rebind it (``_live_reads``): a rebind in one branch leaves the block's value in the other, and a
    read in the other branch of an if holding the block is on no such path.
    In an inline function's copy, a name of the caller's (a parameter's argument: the copy's own
    names are renamed) that the copy leaves live at its end is read, as well, by what follows the
    call, in the body around the copy (and so on outwards)."""
    # the bodies the block is in, innermost first, each with the statement the query starts at
    # and the names that cannot leave it (a copy's own)
    inlined = getattr(cx, INLINED_BODIES, None) or []
    calls = getattr(cx, INLINED_CALLS, None) or []
    bodies = [cx.fdef.body, *inlined]
    escaping: dict[str, ast.Name] = {}
    pending = list(outline.defined)
    anchor = stmt
    for level in range(len(bodies) - 1, -1, -1):
        body = bodies[level]
        live, at_end = _live_reads(cx, body)
        at = (anchor.lineno, anchor.col_offset)
        left = []
        for var in pending:
            node = live.get((at, var))
            if node is not None:
                escaping[var] = node
            elif level and (at, var) in at_end:
                left.append(var)
        if not level:
            break
        anchor, own = calls[level - 1]
        pending = [var for var in left if var not in own]
        if not pending:
            break
    return {var: escaping[var] for var in outline.defined if var in escaping}


LIVE = "_live_reads"  # cx's attribute: id(body) -> (body, its ``_LiveReads`` table)


def _live_reads(cx: FunctionContext, body: list[ast.stmt]) -> tuple[dict, set]:
    """``_LiveReads(body)``'s ``found`` and ``at_end``, made once per body of the function being
    read (a walk per block variable whose first later use rebinds it was quadratic in the blocks).
    Its queries start at blocks and at calls of inline functions (for the variables they pass)."""
    def make():
        walk = _LiveReads(body, lambda call: _inline_call_names(cx, call))
        return walk.found, walk.at_end

    return _per_body(cx, LIVE, body, make)


def _inline_call_names(cx: FunctionContext, s: ast.stmt) -> list[str]:
    """The variables ``s``, a call of an inline function (``y = self.f(...)``, ``self.f(...)``),
    passes to it (its copy may rebind them: reference-surface section 5); else none."""
    value = s.value if isinstance(s, (ast.Assign, ast.Expr)) else None
    if not isinstance(value, ast.Call) or self_method(value.func) not in cx.program.inlines:
        return []
    return [a.id for a in value.args if isinstance(a, ast.Name)]


def _per_body(cx: FunctionContext, attribute: str, body: list[ast.stmt], make):
    """``make()``, made once per body of the function ``cx`` reads and kept in ``cx``'s
    ``attribute`` (id(body) -> (body, what ``make`` made); the body kept so that its id stays its own)."""
    made = getattr(cx, attribute, None)
    if made is None:
        made = {}
        setattr(cx, attribute, made)
    entry = made.get(id(body))
    if entry is None or entry[0] is not body:
        entry = made[id(body)] = (body, make())
    return entry[1]


class _LiveReads:
    """One walk of a function body that finds, for each ``with`` or ``for`` statement S of it and
    each name ``var`` S binds (and each name ``calls(S)`` gives of another statement S: an inline
    function's call and the variables it passes) (a query, keyed ``(at, var)`` by S's position ``at``: statements that
    end together stay apart), the first read of ``var`` after S on a path that has not rebound
    ``var`` since S: ``found[(at, var)]``, absent
    when there is none. A query is live from the end of S (in the branch or body that holds S: not
    in the other branch of an if holding S); an assignment or a ``for`` target binding ``var`` ends
    it on that path; after an if, a query is live where either branch left it live; a host loop may run
    no iteration (a query live before it is live after it) and rebinds its target only in its body
    (a ``pl.spmd`` loop is a block: its body runs, and ends a query on the paths through it that do);
    a query a host loop's body started and left live meets the body again (the next iteration, ``next_iteration``).
    A read is in evaluation order: an if's test, then its branches; a loop's iterator, then its body;
    an assignment's value, then (``t += ...``) its target."""

    def __init__(self, body: list[ast.stmt], calls=lambda stmt: ()):
        self.found: dict[tuple[tuple[int, int], str], ast.AST] = {}
        self.live: dict[str, set[tuple[int, int]]] = {}  # name -> the positions of the statements of its live queries
        self.order: dict[tuple[tuple[int, int], str], int] = {}  # query -> its rank among the started ones
        self.started: list[tuple[tuple[int, int], str]] = []
        self.calls = calls  # a statement -> the names whose queries start at it besides a block's
        self.walk(body, [])
        # the queries live at the end of the body (no read answered them, no path rebound them)
        self.at_end = {(at, var) for var, ends in self.live.items() for at in ends}

    def walk(self, stmts: list[ast.stmt], killed: list[tuple[tuple[int, int], str]]) -> None:
        """Walk ``stmts``, adding to ``killed`` the queries they end on every path through them."""
        for s in stmts:
            if isinstance(s, ast.If):
                self.reads(s.test)
                start = len(self.started)
                then: list = []
                self.walk(s.body, then)
                then = self.before(then, start)
                self.revive(then)
                # the queries the then-branch started are not live in the else-branch
                held = [q for q in self.started[start:] if q[0] in self.live.get(q[1], ())]
                for end, var in held:
                    self.live[var].discard(end)
                other: list = []
                self.walk(s.orelse, other)
                other = self.before(other, start)
                both = set(then) & set(other)
                self.revive([q for q in other if q not in both] + held)
                killed.extend(q for q in other if q in both)
            elif isinstance(s, (ast.For, ast.While)):
                self.reads(s.iter if isinstance(s, ast.For) else s.test)
                start = len(self.started)
                inner: list = []
                if isinstance(s, ast.For):
                    for n in _names(s.target, ast.Store):
                        self.kill(n.id, inner)
                self.walk(s.body, inner)
                if _is_spmd_loop(s):  # (a block: its body runs, and what it binds on every path is bound)
                    killed.extend(self.before(inner, start))
                else:  # (a host loop: its body may run no iteration, or again)
                    self.next_iteration(s, start)
                    self.revive(self.before(inner, start))
            elif isinstance(s, ast.With):
                for item in s.items:
                    self.reads(item.context_expr)
                self.walk(s.body, killed)
            elif isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                if s.value is not None:
                    self.reads(s.value)
                if isinstance(s, ast.AugAssign) and self.live:
                    self.reads(s.target, None)  # t += ...: reads t
                for target in s.targets if isinstance(s, ast.Assign) else [s.target]:
                    for n in _names(target, ast.Store):
                        self.kill(n.id, killed)
            else:
                self.reads(s)
                for n in _names(s, ast.Store):
                    self.kill(n.id, killed)
            if isinstance(s, (ast.With, ast.For)):
                self.start(s)
            elif isinstance(s, (ast.Assign, ast.Expr)):
                names = self.calls(s)
                if names:
                    self.start(s, names)

    def next_iteration(self, loop: ast.For | ast.While, start: int) -> None:
        """The queries ``loop``'s body started (rank ``start`` on) and left live meet the body again
        in the next iteration: a second walk of the body, with only them live, answers them with
        the reads before their block (``t`` read at the top of the body, bound by a block below)."""
        carried = [q for q in self.started[start:] if q[0] in self.live.get(q[1], ())]
        if not carried:
            return
        outside = self.live
        self.live = {}
        for at, var in carried:
            outside[var].discard(at)
            self.live.setdefault(var, set()).add(at)
        if isinstance(loop, ast.For):
            for n in _names(loop.target, ast.Store):
                self.kill(n.id, [])
        self.walk(loop.body, [])
        self.live = outside
        self.revive([q for q in carried if q not in self.found])

    def start(self, stmt: ast.stmt, names=None) -> None:
        """The queries of ``stmt`` (keyed by its position) for ``names`` (default: every name it
        binds), live from its end, once (the second walk of a loop's body meets its statements again)."""
        at = (stmt.lineno, stmt.col_offset)
        for var in {n.id: None for n in _names(stmt, ast.Store)} if names is None else dict.fromkeys(names):
            query = (at, var)
            if query in self.order:
                continue
            self.order[query] = len(self.started)
            self.started.append(query)
            self.live.setdefault(var, set()).add(at)

    def reads(self, node: ast.AST, ctx: type | None = ast.Load) -> None:
        """The reads of ``node`` (its names of ``ctx``, None: all) answer the live queries of their names."""
        if not self.live:
            return
        for n in _names(node, ctx):
            ends = self.live.pop(n.id, None)
            if ends:
                for at in ends:
                    self.found[(at, n.id)] = n

    def kill(self, var: str, killed: list) -> None:
        ends = self.live.pop(var, None)
        if ends:
            killed.extend((at, var) for at in ends)

    def before(self, killed: list, start: int) -> list:
        """Of ``killed``, the queries started before rank ``start``."""
        return [q for q in killed if self.order[q] < start]

    def revive(self, queries: list) -> None:
        for at, var in queries:
            if (at, var) not in self.found:
                self.live.setdefault(var, set()).add(at)


def _is_spmd_loop(loop: ast.For | ast.While) -> bool:
    """``for i in pl.spmd(...)``: a block outlined into one kernel launch, not a loop on the host."""
    return dsl_call(getattr(loop, "iter", None)) == "spmd"


def _names(node: ast.AST, ctx: type | None = None):
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and (ctx is None or isinstance(sub.ctx, ctx)):
            yield sub


def bind_arguments(cx: FunctionContext, call: ast.Call, what: str, positional: tuple[str, ...],
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
        raise cx.error(f"{what}(windowize=...) is not supported: it changes how the existing compiler builds the "
                       "outlined kernel's body (kernel code, which nanopass does not compile), and what it changes "
                       "in the task that launches it is not documented", node,
                       hint="drop windowize= to outline the block as written")
    refuse_predicate(cx, args.get("predicate"), what)
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


def _kernel_name(cx: FunctionContext, hint: ast.expr | None, stmt: ast.With) -> tuple[str, ast.expr | None]:
    """The block's kernel name, and its ``name_hint=`` node when the user named it (``_named_kernel``
    decides whether that name is taken)."""
    count = getattr(cx, "_outlined_count", 0)
    cx._outlined_count = count + 1
    if hint is None or (isinstance(hint, ast.Constant) and hint.value == ""):
        name = f"{cx.fdef.name}_incore_{count}"
        if _taken(cx, name):
            raise cx.error(f"the outlined kernel's name '{name}' is already a function of program '{cx.src.name}'",
                           stmt, hint="give the block a name_hint=")
        return name, None
    if isinstance(hint, ast.Constant) and isinstance(hint.value, str) and hint.value.isidentifier():
        return hint.value, hint
    raise cx.error("name_hint= must be a string literal that is an identifier", hint)


def _taken(cx: FunctionContext, name: str) -> bool:
    return name in cx.program.kernels or name in cx.program.inlines or any(
        f[0].name == name for f in cx.program.functions)


def _named_kernel(cx: FunctionContext, name: str, hint: ast.expr | None, stmt: ast.With,
                  shape: str) -> tuple[str, bool]:
    """The kernel of a block named ``name_hint=name`` whose kernel is ``shape`` (``_kernel_shape``),
    and whether it exists already. A block read more than once (an inline function's, once per call;
    one in a ``pl.unroll`` body, once per iteration) is one kernel while its copies have one shape:
    the first copy's name serves them all. A copy of another shape (a constant argument of the
    inline function substituted into it) is a kernel of its own, ``<name>_<i>`` for the i-th shape
    met (i from 1, skipping names the program already has). Two different blocks may not share a
    name."""
    if hint is None:
        return name, False
    source = (stmt.lineno, stmt.col_offset)
    named = cx.program.named_blocks.get(name)
    if named is not None and named[0] == source:
        shapes = named[1]
        if shape in shapes:
            return shapes[shape], True
        i = len(shapes)
        while _taken(cx, f"{name}_{i}"):
            i += 1
        shapes[shape] = f"{name}_{i}"
        return shapes[shape], False
    if _taken(cx, name):
        raise cx.error(f"the outlined kernel's name '{name}' is already a function of program '{cx.src.name}'",
                       hint, hint="give the block another name_hint=")
    cx.program.named_blocks[name] = (source, {shape: name})
    return name, False


def _kernel_shape(stmt: ast.With, kind: FuncKind, params: list[Any], results: list[tuple[str, Any, Any]],
                  local: tuple[str, ...]) -> str:
    """The kernel block ``stmt`` outlines to, up to the names of its variables: its kind, parameter
    directions and types, result types, and body, each parameter named by its position and each
    name the block binds by its first appearance."""
    renamed = {p.name: f"param{i}" for i, p in enumerate(params)}
    bound = set(local) | {n.id for s in stmt.body for n in ast.walk(s)
                          if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}

    class Canonical(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.Name:
            if node.id in bound and node.id not in renamed:
                renamed[node.id] = f"local{len(renamed)}"
            return ast.Name(renamed.get(node.id, node.id), node.ctx)

    body = [Canonical().visit(copy.deepcopy(s)) for s in stmt.body]
    return repr((kind, [(p.dir, p.type) for p in params], [(renamed.get(v, v), ty) for v, ty, _n in results],
                 [ast.dump(s) for s in body]))


def _argument(cx: FunctionContext, var: str, stmt: ast.With) -> Any:
    """The task's argument for the block's parameter ``var``: a ``pl.unroll`` variable is its copy's constant."""
    binding = cx.lookup(var)
    if binding is not None and binding.kind == "unrolled":
        return cx.unrolled[var]
    return L.Var.make(var, span=cx.span(stmt))


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
