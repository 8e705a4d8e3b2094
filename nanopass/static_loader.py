"""Finding the programs in a user's file without running it (``nanopass run --no-exec``).

The file is parsed with ``ast`` only. A program's Python scope (what ``@pl.program`` would
snapshot when the class is defined) is rebuilt from the plain module-level statements before the
class: ``import nanopass.dsl as pl`` (and ``from nanopass.dsl import ...``) binds the DSL module,
and an assignment binds its value when the right-hand side is a literal, arithmetic over other
constants, a tuple or list of those, ``pl.dynamic("M")`` or a dtype/function-type attribute
(``pl.FP32``). Every other module-level name (another import, a function call, a ``def``, a name
bound inside an ``if``) is recorded as ``Unevaluated``: the front end reports it, naming it, where
a program uses it. Nothing of the file is executed.
"""

from __future__ import annotations

import ast
from enum import Enum
from typing import Any, Callable

from nanopass.passes.frontend import consteval
from nanopass.passes.frontend.limits import MAX_SEQUENCE
from nanopass.passes.frontend.jit import jit_classes
from nanopass.passes.frontend.source import ProgramSource, Unevaluated, program_classes

from .dsl import Program
from .errors import Span, UserError, quoted
from .loader import check_readable, too_deep_for_python

DSL_MODULE = "nanopass.dsl"


class StaticProgram(Program):
    """A ``@pl.program`` class read from a file: a ``dsl.Program`` (its front end run once per
    function) whose source is the class as read, not a class that ran."""

    def __init__(self, source: ProgramSource):  # (dsl.Program's fields, the source for the class)
        self.name = source.name
        self.closure = source.closure
        self.parsed_file = None
        self._source = source
        self._read: dict[str | None, tuple[Any, Any, list, list]] = {}

    def __repr__(self) -> str:
        return f"<nanopass program {self.name} (read without running)>"

    def source(self) -> ProgramSource:
        return self._source


def load_programs_static(path: str) -> list[StaticProgram]:
    """The ``@pl.program`` classes of ``path`` in file order, read with ``ast`` (never imported)."""
    check_readable(path)
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    tree = parse_file(text, path)
    programs: dict[str, StaticProgram] = {}
    decorated = {id(node) for node in program_classes(tree)}
    scope = ModuleScope()
    for stmt in tree.body:
        if id(stmt) in decorated:
            source = ProgramSource(stmt.name, path, text, stmt, dict(scope.names))
            programs.pop(stmt.name, None)  # a later class of the same name replaces it, as in Python
            programs[stmt.name] = StaticProgram(source)
        scope.statement(stmt)
    for cls in jit_classes(tree, path, text):
        programs.pop(cls.name, None)
        programs[cls.name] = StaticProgram(ProgramSource(cls.name, path, text, cls, dict(scope.names)))
    if not programs:
        raise UserError(f"{path}: no @pl.program class found")
    return list(programs.values())


def parse_file(text: str, path: str) -> ast.Module:
    try:
        return ast.parse(text, path)
    except SyntaxError as error:
        span = Span(path, error.lineno or 1, max(0, (error.offset or 1) - 1))
        raise UserError(f"Python syntax error: {error.msg}", span) from None
    except (RecursionError, MemoryError):
        raise too_deep_for_python(path) from None


class ModuleScope:
    """The module-level names bound so far, statement by statement: values or ``Unevaluated``."""

    def __init__(self) -> None:
        self.names: dict[str, Any] = {}

    def statement(self, stmt: ast.stmt) -> None:
        line = stmt.lineno
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                self.bind_import(alias.asname or alias.name.split(".")[0], alias.name if alias.asname else "", line)
        elif isinstance(stmt, ast.ImportFrom):
            self.import_from(stmt)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            if stmt.value is None:
                return
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            value = self.evaluate(stmt.value)
            for target in targets:
                self.assign(target, value, stmt.value, line)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            combined = ast.BinOp(left=ast.Name(stmt.target.id, ast.Load()), op=stmt.op, right=stmt.value)
            self.names[stmt.target.id] = self.evaluate(ast.copy_location(combined, stmt))
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.names[stmt.name] = Unevaluated(stmt.name, f"is a function defined at line {line}")
        elif isinstance(stmt, ast.ClassDef):
            self.names[stmt.name] = Unevaluated(stmt.name, f"is a class defined at line {line}")
        elif isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    self.names.pop(target.id, None)
        else:
            kind = type(stmt).__name__.lower()
            for name in _bound_names(stmt):
                self.names[name] = Unevaluated(name, f"is bound inside a module-level '{kind}' statement at line {line}")

    def bind_import(self, name: str, module: str, line: int) -> None:
        from nanopass import dsl

        if module == DSL_MODULE or (not module and name == "nanopass"):
            self.names[name] = dsl if module else _Package(dsl)
        else:
            self.names[name] = Unevaluated(name, f"is an imported module (line {line}); --no-exec imports nothing")

    def import_from(self, stmt: ast.ImportFrom) -> None:
        from nanopass import dsl

        for alias in stmt.names:
            name = alias.asname or alias.name
            if stmt.module == "nanopass" and alias.name == "dsl":
                self.names[name] = dsl
            elif stmt.module == DSL_MODULE and alias.name != "*" and not alias.name.startswith("_") and hasattr(dsl, alias.name):
                self.names[name] = getattr(dsl, alias.name)
            elif alias.name == "*":
                continue
            else:
                self.names[name] = Unevaluated(
                    name, f"is imported from '{stmt.module or '.'}' (line {stmt.lineno}); --no-exec imports nothing"
                )

    def assign(self, target: ast.expr, value: Any, node: ast.expr, line: int) -> None:
        if isinstance(target, ast.Name):
            self.names[target.id] = value if not isinstance(value, Unevaluated) else Unevaluated(target.id, value.reason)
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            elts = value if isinstance(value, (tuple, list)) and len(value) == len(target.elts) else None
            for index, elt in enumerate(target.elts):
                if elts is not None:
                    self.assign(elt, elts[index], node, line)
                else:
                    for name in _names_in(elt):
                        reason = value.reason if isinstance(value, Unevaluated) else f"is unpacked at line {line}"
                        self.names[name] = Unevaluated(name, reason)
        # attribute and subscript targets bind no name

    def evaluate(self, node: ast.expr) -> Any:
        """The value of a constant expression, or ``Unevaluated`` saying why there is none."""
        try:
            return consteval.evaluate(node, self._lookup, MODULE)
        except consteval.NotConstant as why:
            return Unevaluated("", _wording(why))
        except RecursionError:
            return Unevaluated("", f"is assigned an expression nested too deeply at line {node.lineno}")

    def _lookup(self, name: str, node: ast.Name) -> Any:
        if name not in self.names:
            line = getattr(node, "lineno", 0)  # (an augmented assignment's target has no position of its own)
            raise _refused(node, f"depends on '{name}', which is not defined before line {line}")
        value = self.names[name]
        if isinstance(value, Unevaluated):
            raise _refused(node, f"depends on '{name}', which {value.reason}")
        return value


def _attribute(base: Any, node: ast.Attribute) -> Any:
    """``pl.FP32``, ``pl.FunctionType.AIV``, ``pl.dynamic``: attributes of the DSL's namespaces."""
    if not _is_dsl_namespace(base) or node.attr.startswith("_"):
        raise consteval.NotConstant(node, consteval.SYNTAX)
    value = getattr(base, node.attr, None)
    if isinstance(value, Enum) or _is_dsl_namespace(value) or value is _dsl_dynamic():
        return value
    raise _refused(node, f"is assigned {quoted(_short(node))} at line {node.lineno}, which is not a dtype or a DSL constant")


def _call(node: ast.Call, evaluate: Callable[[ast.expr], Any]) -> Any:
    """``pl.dynamic("M")``, the one call a module constant may make."""
    from nanopass.dsl import DynamicDim

    try:
        func = evaluate(node.func)
    except consteval.NotConstant:
        func = None
    if func is not _dsl_dynamic():
        raise _refused(node, f"is assigned from a function call {quoted(_short(node))} at line {node.lineno}")
    if len(node.args) != 1 or node.keywords:
        raise _refused(node, f"is assigned {quoted(_short(node))} at line {node.lineno}; pl.dynamic takes one name")
    name = evaluate(node.args[0])
    if not isinstance(name, str) or not name.isidentifier():
        raise _refused(node, f"is assigned {quoted(_short(node))} at line {node.lineno}; pl.dynamic needs an identifier")
    return DynamicDim(name)


def _refused(node: ast.AST, reason: str) -> consteval.NotConstant:
    return consteval.NotConstant(node, consteval.READER, reason)


# Module-level constants: numbers, strings, None, tuples and lists of those, DSL attributes, pl.dynamic.
MODULE = consteval.Policy((int, float, bool, str, type(None)), sequences=True, attribute=_attribute, call=_call)

_ARITHMETIC_WORDING = {
    consteval.NOT_NUMBERS: ": arithmetic needs numbers",
    consteval.TOO_LARGE: ", a number too large to compute",
    consteval.COMPLEX: ", a complex number",
}


def _wording(why: consteval.NotConstant) -> str:
    """Completes "'NAME' ..." (an ``Unevaluated`` reason)."""
    node, line = why.node, getattr(why.node, "lineno", 0)
    if why.kind == consteval.READER:
        return why.detail
    if why.kind == consteval.LITERAL:
        return f"is assigned a {type(why.detail).__name__} literal at line {line}"
    if why.kind == consteval.SEQUENCE:
        return f"is assigned a sequence of more than {MAX_SEQUENCE} elements at line {line}"
    if why.kind == consteval.ARITHMETIC:
        return f"is assigned {quoted(_short(node))} at line {line}{_ARITHMETIC_WORDING[why.detail]}"
    if why.kind == consteval.RAISES:
        return f"is assigned {quoted(_short(node))} at line {line}, which raises {type(why.detail).__name__}"
    return f"is assigned {quoted(_short(node))} at line {line}, which is not a constant expression"


class _Package:
    """``import nanopass``: only ``nanopass.dsl`` is reachable through it."""

    def __init__(self, dsl: Any):
        self.dsl = dsl


def _is_dsl_namespace(value: Any) -> bool:
    from nanopass import dsl

    return value is dsl or isinstance(value, _Package) or value in (dsl.FunctionType, dsl.DataType) or (
        isinstance(value, type) and issubclass(value, Enum) and value.__module__ in (dsl.__name__, "nanopass.languages.terms")
    )


def _dsl_dynamic() -> Callable:
    from nanopass import dsl

    return dsl.dynamic


def _bound_names(stmt: ast.stmt) -> list[str]:
    """Names a compound statement (if, for, try, with ...) binds, nested definitions excluded."""
    names: list[str] = []
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not stmt:
            names.append(node.name)
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.append(node.id)
        elif isinstance(node, ast.alias):
            names.append((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.append(node.name)
        stack.extend(ast.iter_child_nodes(node))
    return names


def _names_in(target: ast.expr) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def _short(node: ast.AST, limit: int = 50) -> str:
    try:
        text = ast.unparse(node)
    except (RecursionError, ValueError):
        return "..."
    return text if len(text) <= limit else text[: limit - 3] + "..."
