"""The existing compiler's printed IR (its ``python_print`` text) read as the DSL.

That compiler prints a program, as written or after its own pipeline, in a Python form close to
the DSL. ``desugar`` rewrites the ``ast`` of such a class into the DSL's ``ast`` (a copy; every
node keeps its position, so errors point into the printed text) and takes out what the printed
form adds:

- ``level=`` / ``role=`` on ``@pl.function`` (ignored by ``program``), kernels without ``self``
  (``self`` is added);
- ``pl.MemRef(...)`` and ``pl.Mem.*`` in types (``type_reader`` ignores a tensor's and reads a
  tile's extra items), ``pl.tile.*`` kernel bodies (summarised as any kernel body is);
- ``pl.tensor.create(..., layout=pl.TensorLayout.ND)``: ND is the only layout a created tensor has;
- ``t: pl.Tuple[...] = call`` followed at once by ``a = t[0]``, ``b = t[1]``: ``a, b = call``;
- ``pl.cast(x, pl.INDEX)`` (or ``pl.INT64``) of a signed integer: ``x`` (C++ converts it);
- ``attrs={...}`` on calls and loops: ``arg_direction_overrides`` is the user's ``pl.no_dep``
  (the arguments at those indices are wrapped in it); the other keys are the existing compiler's
  analysis results, never trusted: they are kept as ``PrintedHints`` for ``printed_hints`` to
  compare with what the project's passes derive;
- SSA names (``x__ssa_v1``): the program's source is marked ``printed``, which lets names hold
  ``__`` (``names.check_user_name``); ``convert_to_ssa`` keeps a name defined once, so the
  printed versions survive, and the C++ namer strips their suffixes (``naming.base_name``).

Explicit ``pl.yield_``, ``init_values=``, ``pl.scope(mode=...)`` and ``pl.system.task_invalid()``
are DSL already. A construct of the printed form that has no DSL meaning here is a located
``UserError``.
"""

from __future__ import annotations

import ast
import copy
import re
from dataclasses import dataclass, field, replace

from nanopass.errors import Span, UserError

from .names import attr_path, self_method
from .source import ProgramSource

# pl.adir.<name> -> the project's ArgDir name
ADIR = {
    "input": "Input", "output": "Output", "inout": "InOut", "output_existing": "OutputExisting",
    "no_dep": "NoDep", "scalar": "Scalar",
}
WIDENING_CASTS = {"INDEX", "INT64"}  # pl.cast targets dropped (the C++ conversion is implicit)
PRINTED_KEYWORDS = {"level", "role"}  # @pl.function keywords only the printed form writes


@dataclass(frozen=True)
class CallHint:
    """``attrs={"arg_directions": [...]}`` on a kernel call or ``pl.submit`` at ``span``."""

    span: Span
    kernel: str
    directions: tuple[str, ...]  # ArgDir names, one per kernel argument


@dataclass(frozen=True)
class LoopHint:
    """``attrs={"iter_arg_rebind_<i>": ..., "iter_arg_array_size_<i>": ...}`` on a loop at ``span``."""

    span: Span
    rebind: tuple[tuple[int, bool], ...]
    array_size: tuple[tuple[int, int], ...]


@dataclass
class PrintedHints:
    """The analysis results a printed program carries, to be checked, never followed."""

    calls: list[CallHint] = field(default_factory=list)
    loops: list[LoopHint] = field(default_factory=list)
    unread: list[tuple[Span, str]] = field(default_factory=list)  # attrs keys nothing checks


def is_printed(classdef: ast.ClassDef) -> bool:
    """Whether a program class is in the printed form: a ``@pl.function`` with ``level=`` or
    ``role=`` (the printer writes both on every function; a DSL program has neither)."""
    for fdef in _functions(classdef):
        deco = _decorator(fdef)
        if isinstance(deco, ast.Call) and any(kw.arg in PRINTED_KEYWORDS for kw in deco.keywords):
            return True
    return False


def desugar(src: ProgramSource) -> tuple[ProgramSource, PrintedHints]:
    """The DSL reading of a printed program class, and the hints it carries."""
    reader = _Desugar(src)
    classdef = copy.deepcopy(src.classdef)
    for fdef in _functions(classdef):
        deco = _decorator(fdef)
        if _is_orchestration(deco):
            if _pipeline_scoped(deco, fdef):
                fdef.body = _without_pipeline_scopes(fdef.body[0].body)
                deco.keywords = [kw for kw in deco.keywords if kw.arg != "auto_scope"]
            _rename_to_base_names(fdef, src.closure)
            fdef.body = reader.block(fdef.body)
        elif not (fdef.args.args and fdef.args.args[0].arg == "self"):
            fdef.args.args.insert(0, ast.arg("self", None, lineno=fdef.lineno, col_offset=fdef.col_offset))
    return replace(src, classdef=classdef, printed=True), reader.hints


class _Desugar:
    def __init__(self, src: ProgramSource):
        self.src = src
        self.hints = PrintedHints()
        self.casts = 0  # pl.cast calls dropped so far

    def error(self, message: str, node: ast.AST, hint: str | None = None) -> UserError:
        return UserError(message, self.src.span(node), hint)

    # -- statements ----------------------------------------------------------------------------------

    def block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        index = 0
        while index < len(stmts):
            stmt = stmts[index]
            fused = self.tuple_reads(stmts, index)
            if fused is not None:
                stmt, index = fused
            else:
                index += 1
            out.append(self.stmt(stmt))
        return out

    def stmt(self, stmt: ast.stmt) -> ast.stmt:
        if isinstance(stmt, ast.For):
            self.loop_attrs(stmt)
        for name in ("body", "orelse"):
            if isinstance(getattr(stmt, name, None), list) and not isinstance(stmt, ast.FunctionDef):
                setattr(stmt, name, self.block(getattr(stmt, name)))
        if isinstance(stmt, ast.AnnAssign) and _is_tuple_annotation(stmt.annotation):
            raise self.error("a tuple result must be read by index (t[0], t[1], ...) in the statements "
                             "right after it is assigned, and nowhere else", stmt)
        casts = self.casts
        for field_name in ("value", "iter", "test"):
            node = getattr(stmt, field_name, None)
            if isinstance(node, ast.expr):
                setattr(stmt, field_name, self.expr(node))
        for item in getattr(stmt, "items", ()):
            item.context_expr = self.expr(item.context_expr)
        if isinstance(stmt, ast.AnnAssign) and self.casts != casts and stmt.value is not None:
            # the annotation states the type of the cast: without it, the type is the value's
            return ast.Assign([stmt.target], stmt.value, lineno=stmt.lineno, col_offset=stmt.col_offset)
        return stmt

    def tuple_reads(self, stmts: list[ast.stmt], index: int) -> tuple[ast.stmt, int] | None:
        """``t: pl.Tuple[...] = call`` and the reads ``x = t[k]`` right after it, as ``x0, x1 = call``
        (an element nobody reads gets the name ``t__k``); the statement and the next index."""
        stmt = stmts[index]
        if not (isinstance(stmt, (ast.Assign, ast.AnnAssign)) and isinstance(stmt.value, ast.Call)):
            return None
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
        if not isinstance(target, ast.Name) or isinstance(stmt, ast.Assign) and len(stmt.targets) != 1:
            return None
        arity = _tuple_arity(stmt.annotation) if isinstance(stmt, ast.AnnAssign) else None
        if arity is None and not _returns_tuple(stmt.value):
            return None
        names: dict[int, ast.Name] = {}
        end = index + 1
        while end < len(stmts):
            read = _index_read(stmts[end], target.id)
            if read is None:
                break
            position, name = read
            if position in names:
                raise self.error(f"element {position} of '{target.id}' is read twice", stmts[end])
            names[position] = name
            end += 1
        if not names:
            return None if arity is None else self._unread_tuple(stmt, target)
        size = max(max(names) + 1, arity or 0)
        if arity is not None and max(names) >= arity:
            raise self.error(f"'{target.id}' has {arity} elements", stmts[index + 1])
        if any(_mentions(later, target.id) for later in stmts[end:]):
            later = next(s for s in stmts[end:] if _mentions(s, target.id))
            raise self.error(f"the tuple '{target.id}' is used here after its elements were read; the printed form "
                             "is read only where each element is read by index right after the tuple is assigned", later)
        elts = [names.get(k) or ast.Name(f"{target.id}__{k}", ast.Store(), lineno=target.lineno,
                                         col_offset=target.col_offset) for k in range(size)]
        where = {"lineno": target.lineno, "col_offset": target.col_offset}
        if (attr_path(stmt.value.func) or [""])[-1] == "submit" and size != 2:  # pl.submit's (results, task_id)
            elts = [ast.Tuple(elts[:-1], ast.Store(), **where), elts[-1]]
        fused = ast.Assign([ast.Tuple(elts, ast.Store(), **where)], stmt.value, lineno=stmt.lineno,
                           col_offset=stmt.col_offset)
        return fused, end

    def _unread_tuple(self, stmt: ast.stmt, target: ast.Name) -> None:
        raise self.error(f"the tuple '{target.id}' is not read by index right after it is assigned", stmt,
                         hint=f"read it as x = {target.id}[0], y = {target.id}[1] in the next statements")

    def loop_attrs(self, stmt: ast.For) -> None:
        call = stmt.iter
        if not isinstance(call, ast.Call):
            return
        attrs = self.take_attrs(call)
        if attrs is None:
            return
        rebind, sizes = [], []
        for key, value in attrs:
            slot = _slot(key, "iter_arg_rebind_") if key else None
            size_slot = _slot(key, "iter_arg_array_size_") if key else None
            if slot is not None and isinstance(value, ast.Constant) and isinstance(value.value, bool):
                rebind.append((slot, value.value))
            elif size_slot is not None and isinstance(value, ast.Constant) and type(value.value) is int:
                sizes.append((size_slot, value.value))
            else:
                self.hints.unread.append((self.src.span(value), str(key)))
        self.hints.loops.append(LoopHint(self.src.span(stmt), tuple(rebind), tuple(sizes)))

    # -- expressions ---------------------------------------------------------------------------------

    def expr(self, node: ast.expr) -> ast.expr:
        return _Calls(self).visit(node)

    def call(self, node: ast.Call) -> ast.expr:
        path = attr_path(node.func) or []
        spelled = ".".join(path[1:])
        kernel = self_method(node.func)
        if spelled == "cast":
            return self.cast(node)
        if spelled in ("tensor.create", "create_tensor"):
            self.drop_nd_layout(node)
        if kernel is not None or spelled == "submit":
            self.call_attrs(node, kernel)
        elif any(kw.arg == "attrs" for kw in node.keywords):
            raise self.error(f"attrs= on pl.{spelled} is not read by this compiler", node)
        return node

    def cast(self, node: ast.Call) -> ast.expr:
        target = (attr_path(node.args[1]) or [""])[-1] if len(node.args) == 2 and not node.keywords else ""
        if target not in WIDENING_CASTS:
            raise self.error("pl.cast is read only as a widening to pl.INDEX or pl.INT64 (an implicit conversion in "
                             "C++)", node)
        self.casts += 1
        return node.args[0]

    def drop_nd_layout(self, node: ast.Call) -> None:
        for kw in list(node.keywords):
            if kw.arg == "layout":
                if (attr_path(kw.value) or [""])[-1] != "ND":
                    raise self.error("a created tensor has the ND layout only", kw.value)
                node.keywords.remove(kw)

    def call_attrs(self, node: ast.Call, kernel: str | None) -> None:
        attrs = self.take_attrs(node)
        if attrs is None:
            return
        offset = 0 if kernel is not None else 1  # pl.submit(self.k, args...): the kernel's arguments follow
        if kernel is None:
            kernel = self_method(node.args[0]) if node.args else None
        for key, value in attrs:
            if key == "arg_direction_overrides":
                for index in self.int_list(value):
                    if not 0 <= index + offset < len(node.args):
                        raise self.error(f"arg_direction_overrides names argument {index}, which the call does "
                                         "not have", value)
                    arg = node.args[index + offset]
                    no_dep = ast.Attribute(ast.Name("pl", ast.Load()), "no_dep", ast.Load())
                    node.args[index + offset] = ast.copy_location(ast.Call(ast.copy_location(no_dep, arg), [arg], []),
                                                                  arg)
            elif key == "arg_directions" and isinstance(value, (ast.List, ast.Tuple)):
                names = []
                for item in value.elts:
                    name = (attr_path(item) or [""])[-1]
                    if name not in ADIR:
                        raise self.error(f"unknown argument direction {ast.unparse(item)!r}", item,
                                         hint="pl.adir." + ", pl.adir.".join(ADIR))
                    names.append(ADIR[name])
                self.hints.calls.append(CallHint(self.src.span(node), kernel or "?", tuple(names)))
            else:
                self.hints.unread.append((self.src.span(value), str(key)))

    def take_attrs(self, node: ast.Call) -> list[tuple[str | None, ast.expr]] | None:
        """Remove ``attrs={...}`` from ``node``; its items (key None where the key is no string)."""
        kw = next((kw for kw in node.keywords if kw.arg == "attrs"), None)
        if kw is None:
            return None
        node.keywords.remove(kw)
        if not isinstance(kw.value, ast.Dict):
            raise self.error("attrs= must be a dict literal", kw.value)
        items = []
        for key, value in zip(kw.value.keys, kw.value.values):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                raise self.error("attrs= keys must be strings", key or value)
            items.append((key.value, value))
        return items

    def int_list(self, node: ast.expr) -> list[int]:
        if isinstance(node, (ast.List, ast.Tuple)) and all(
            isinstance(e, ast.Constant) and type(e.value) is int for e in node.elts
        ):
            return [e.value for e in node.elts]
        raise self.error("expected a list of argument indices", node)


class _Calls(ast.NodeTransformer):
    """Every call of an expression, innermost first, through ``_Desugar.call``."""

    def __init__(self, owner: _Desugar):
        self.owner = owner

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        return self.owner.call(node)


# -- helpers ------------------------------------------------------------------------------------------

SSA_NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*?)__[a-z]+_v[0-9]+\Z")  # x__ssa_v1, acc__iter_v0, t__tmp_v2


def _rename_to_base_names(fdef: ast.FunctionDef, closure) -> None:
    """Give each SSA name of the function (``x__ssa_v0``) its base name (``x``) where that renaming is
    one to one: the base is no other name of the function's (bare, or the base of another version)
    nor a Python name the program sees. The other versions keep their names (``naming.base_name``
    strips them for C++, keeping names unique)."""
    names = {node.id for node in ast.walk(fdef) if isinstance(node, ast.Name)}
    names |= {arg.arg for arg in fdef.args.args}
    versions: dict[str, list[str]] = {}
    for name in names:
        match = SSA_NAME.match(name)
        if match and "__" not in match.group(1):
            versions.setdefault(match.group(1), []).append(name)
    rename = {
        full[0]: base for base, full in versions.items()
        if len(full) == 1 and base not in names and base not in closure and base not in ("pl", "self")
    }
    if not rename:
        return
    for arg in fdef.args.args:
        arg.arg = rename.get(arg.arg, arg.arg)
    for node in ast.walk(fdef):
        if isinstance(node, ast.Name) and node.id in rename:
            node.id = rename[node.id]



def _pipeline_scoped(deco: ast.Call, fdef: ast.FunctionDef) -> bool:
    """An orchestration function as the existing compiler prints it after its pipeline: declared
    ``auto_scope=False``, its body one AUTO ``with pl.scope():`` (the scope that pipeline placed)."""
    manual = any(kw.arg == "auto_scope" and isinstance(kw.value, ast.Constant) and kw.value.value is False
                 for kw in deco.keywords)
    return manual and len(fdef.body) == 1 and _auto_scope(fdef.body[0])


def _auto_scope(stmt: ast.stmt) -> bool:
    """``with pl.scope():`` (AUTO: no mode, or mode=pl.ScopeMode.AUTO)."""
    if not (isinstance(stmt, ast.With) and len(stmt.items) == 1 and stmt.items[0].optional_vars is None):
        return False
    call = stmt.items[0].context_expr
    if not (isinstance(call, ast.Call) and (attr_path(call.func) or [""])[-1] == "scope" and not call.args):
        return False
    return all(kw.arg == "mode" and (attr_path(kw.value) or [""])[-1] == "AUTO" for kw in call.keywords)


def _without_pipeline_scopes(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """The AUTO scopes the printing compiler's pipeline placed as the whole body of a loop or a
    branch, taken out (they are the scopes ``materialize_runtime_scopes`` places there)."""
    for stmt in stmts:
        for name in ("body", "orelse"):
            block = getattr(stmt, name, None)
            if not isinstance(block, list) or not block:
                continue
            if isinstance(stmt, (ast.For, ast.If)) and len(block) == 1 and _auto_scope(block[0]):
                block = block[0].body
            setattr(stmt, name, _without_pipeline_scopes(block))
    return stmts


def _functions(classdef: ast.ClassDef) -> list[ast.FunctionDef]:
    return [s for s in classdef.body if isinstance(s, ast.FunctionDef) and _decorator(s) is not None]


def _decorator(fdef: ast.FunctionDef) -> ast.expr | None:
    for deco in fdef.decorator_list:
        node = deco.func if isinstance(deco, ast.Call) else deco
        path = attr_path(node)
        if path and path[-1] == "function":
            return deco
    return None


def _is_orchestration(deco: ast.expr | None) -> bool:
    if not isinstance(deco, ast.Call):
        return False
    return any(kw.arg == "type" and (attr_path(kw.value) or [""])[-1] == "Orchestration" for kw in deco.keywords)


def _is_tuple_annotation(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Subscript) and (attr_path(node.value) or [""])[-1] == "Tuple"


def _tuple_arity(node: ast.expr | None) -> int | None:
    if not _is_tuple_annotation(node):
        return None
    return len(node.slice.elts) if isinstance(node.slice, ast.Tuple) else 1


def _returns_tuple(call: ast.Call) -> bool:
    """A kernel call or ``pl.submit``: the calls whose result the printed form reads by index."""
    return self_method(call.func) is not None or (attr_path(call.func) or [""])[-1] == "submit"


def _index_read(stmt: ast.stmt, name: str) -> tuple[int, ast.Name] | None:
    """``x = name[k]`` (annotated or not): (k, the target ``x``)."""
    if not isinstance(stmt, (ast.Assign, ast.AnnAssign)) or stmt.value is None:
        return None
    target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
    value = stmt.value
    if not (isinstance(target, ast.Name) and isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name)
            and value.value.id == name and isinstance(value.slice, ast.Constant) and type(value.slice.value) is int):
        return None
    return value.slice.value, target


def _mentions(stmt: ast.stmt, name: str) -> bool:
    return any(isinstance(node, ast.Name) and node.id == name for node in ast.walk(stmt))


def _slot(key: str, prefix: str) -> int | None:
    rest = key[len(prefix):] if key.startswith(prefix) else ""
    return int(rest) if rest.isdigit() else None
