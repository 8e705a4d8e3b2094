"""Python constant expressions in a program's annotations and DSL arguments: literals, module-level
names, and arithmetic over those."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Callable

from nanopass.errors import UserError, quoted
from nanopass.languages.terms import DType, FuncKind

from .limits import MAX_EXPR_DEPTH, expr_depth
from .source import short_source

if TYPE_CHECKING:
    from .program import ProgramParser


def check_expr_depth(program: "ProgramParser", node: ast.expr) -> None:
    if expr_depth(node) > MAX_EXPR_DEPTH:
        raise too_deep(program, node)


def too_deep(program: "ProgramParser", node: ast.expr) -> UserError:
    return program.error(
        f"expression nested more than {MAX_EXPR_DEPTH} deep", node, hint="split it with intermediate variables"
    )


def constant_value(program: ProgramParser, node: ast.expr) -> Any:
    """A Python constant: a literal, a closure name, or arithmetic over those."""
    check_expr_depth(program, node)
    return _constant_value(program, node)


def _constant_value(program: ProgramParser, node: ast.expr) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool)):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in program.src.closure:
            value = program.src.closure_get(node.id, node)
            if isinstance(value, (int, float, bool)):
                return value
            raise program.error(f"'{node.id}' is {describe(value)}; a constant number is needed here", node)
        raise program.error(f"'{node.id}' is not a constant defined at module level", node)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_constant_value(program, node.operand)
    if isinstance(node, ast.BinOp) and (type(node.op) in _CONST_OPS):
        a = _constant_value(program, node.left)
        b = _constant_value(program, node.right)
        try:
            return _CONST_OPS[type(node.op)](a, b)
        except (ZeroDivisionError, ValueError, OverflowError) as error:
            raise program.error(f"cannot evaluate constant {quoted(ast.unparse(node))}: {error}", node) from None
    if isinstance(node, ast.Constant):
        raise program.error(f"expected a number, got {describe(node.value)}", node)
    raise program.error(f"expected a constant, got {quoted(short_source(node))}", node)


# Operators allowed between Python constants (evaluated with Python's semantics).
_CONST_OPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a**b if abs(b) <= 256 else _too_big(),
    ast.LShift: lambda a, b: a << b if 0 <= b <= 256 else _too_big(),
    ast.RShift: lambda a, b: a >> b,
}


def _too_big():
    raise ValueError("exponent too large")


def describe(value: Any) -> str:
    """A Python value as a message names it: 'a dtype (pl.FP16)', 'the string 'x'', 'a list' ..."""
    from nanopass.dsl import DynamicDim, _Annotation, _TypeConstructor

    if isinstance(value, DType):
        return f"a dtype (pl.{value.name})"
    if isinstance(value, FuncKind):
        return f"a function type (pl.FunctionType.{value.name})"
    if isinstance(value, _Annotation):
        return f"a type ({value!r})"
    if isinstance(value, _TypeConstructor):
        return f"a type constructor ({value!r})"
    if isinstance(value, DynamicDim):
        return f"a dynamic dimension ({value!r})"
    if isinstance(value, bool) or value is None or value is Ellipsis:
        return repr(value)
    if isinstance(value, (str, bytes, int, float, complex)):
        text = repr(value)
        kind = {str: "string", int: "integer", complex: "complex number"}.get(type(value), type(value).__name__)
        return f"the {kind} {text if len(text) <= 40 else text[:37] + '...'}"
    if isinstance(value, type):
        return f"the class '{value.__name__}'"
    if callable(value):
        return f"a function ('{getattr(value, '__name__', '?')}')"
    if type(value).__name__ == "module":
        return f"a module ('{value.__name__}')"
    article = "an" if type(value).__name__[:1] in "aeiou" else "a"
    return f"{article} {type(value).__name__}"
