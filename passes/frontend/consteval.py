"""One evaluator of Python constant expressions, for both readers of a program file.

The front end evaluates the constants a program writes in its annotations and DSL arguments
(``pl.Tensor[[N * 2, 16], pl.FP32]``, ``pl.array.create(N + 1, ...)``, ``init_value=-1.5``); the
static loader (``--no-exec``) evaluates module-level assignments (``N = 4 * 16``) instead of
running them. Both call ``evaluate`` with their own ``lookup`` of names and a ``Policy`` of what
else a constant may be; numbers follow one rule, Python's arithmetic within a size guard:

- the operators are ``+ - * / // % ** << >> & | ^`` and unary ``- + ~``, with Python's meaning,
  between numbers (int, float, bool); anything else is "arithmetic needs numbers";
- an integer result has at most ``MAX_INT_BITS`` bits, and an integer exponent or shift count
  over ``MAX_INT_BITS`` is refused before it is computed ("a number too large to compute");
- a complex result is refused; an operation Python refuses (division by zero, a negative shift
  count, a float overflow, a float shifted) is refused with its exception.

``evaluate`` raises ``NotConstant`` (the node, a kind and its detail); each reader words it.
"""

from __future__ import annotations

import ast
import operator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from nanopass.errors import UserError, quoted
from nanopass.languages.terms import DType, FuncKind

from .limits import MAX_EXPR_DEPTH, MAX_INT_BITS, MAX_SEQUENCE, expr_depth
from .source import short_source

if TYPE_CHECKING:
    from .program import ProgramParser

# NotConstant kinds and what their detail is
LITERAL = "literal"  # a literal the policy does not allow: the literal's value
SYNTAX = "syntax"  # not an expression the policy evaluates: None
ARITHMETIC = "arithmetic"  # one of the three problems below
RAISES = "raises"  # Python refused the operation: the exception
SEQUENCE = "sequence"  # a tuple or list of more than MAX_SEQUENCE elements: None
READER = "reader"  # raised by a reader's lookup or policy hook: its own wording
NOT_NUMBERS = "arithmetic needs numbers"
TOO_LARGE = "a number too large to compute"
COMPLEX = "a complex number"


class NotConstant(Exception):
    """``node`` has no constant value: ``kind`` says why, ``detail`` (see the kinds) says more."""

    def __init__(self, node: ast.AST, kind: str, detail: Any = None):
        super().__init__(kind, detail)
        self.node = node
        self.kind = kind
        self.detail = detail


@dataclass(frozen=True)
class Policy:
    """What a constant may be besides arithmetic over numbers."""

    literals: tuple[type, ...]  # the literal kinds allowed (None's kind for None)
    sequences: bool = False  # tuple and list displays, of at most MAX_SEQUENCE elements
    attribute: Callable[[Any, ast.Attribute], Any] | None = None  # base value, node -> value (or NotConstant)
    call: Callable[[ast.Call, Callable[[ast.expr], Any]], Any] | None = None  # node, evaluate -> value


NUMBERS = Policy((int, float, bool))  # the front end's: annotations and DSL arguments


def evaluate(node: ast.expr, lookup: Callable[[str, ast.Name], Any], policy: Policy) -> Any:
    """The value of the constant expression ``node``; names are ``lookup(name, node)``'s."""
    kind = type(node)
    if kind is ast.Constant:
        if isinstance(node.value, policy.literals):
            return node.value
        raise NotConstant(node, LITERAL, node.value)
    if kind is ast.Name:
        return lookup(node.id, node)
    if kind is ast.BinOp and type(node.op) in _BINARY:
        a = evaluate(node.left, lookup, policy)
        b = evaluate(node.right, lookup, policy)
        return _arithmetic(_BINARY[type(node.op)], (a, b), node)
    if kind is ast.UnaryOp and type(node.op) in _UNARY:
        return _arithmetic(_UNARY[type(node.op)], (evaluate(node.operand, lookup, policy),), node)
    if policy.sequences and kind in (ast.Tuple, ast.List):
        if len(node.elts) > MAX_SEQUENCE:
            raise NotConstant(node, SEQUENCE)
        items = [evaluate(e, lookup, policy) for e in node.elts]
        return tuple(items) if kind is ast.Tuple else items
    if policy.attribute is not None and kind is ast.Attribute:
        return policy.attribute(evaluate(node.value, lookup, policy), node)
    if policy.call is not None and kind is ast.Call:
        return policy.call(node, lambda sub: evaluate(sub, lookup, policy))
    raise NotConstant(node, SYNTAX)


def _arithmetic(op: Callable, args: tuple, node: ast.expr) -> Any:
    if not all(isinstance(a, (int, float)) for a in args):  # (bool is an int)
        raise NotConstant(node, ARITHMETIC, NOT_NUMBERS)
    if op in (operator.pow, operator.lshift) and all(isinstance(a, int) for a in args) and abs(args[1]) > MAX_INT_BITS:
        raise NotConstant(node, ARITHMETIC, TOO_LARGE)
    try:
        value = op(*args)
    except (ArithmeticError, ValueError, TypeError) as error:
        raise NotConstant(node, RAISES, error) from None
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise NotConstant(node, ARITHMETIC, TOO_LARGE)
    if isinstance(value, complex):
        raise NotConstant(node, ARITHMETIC, COMPLEX)
    return value


_UNARY: dict[type, Callable] = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}
_BINARY: dict[type, Callable] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
    ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
}


# -- the front end's constants -------------------------------------------------------------------


def constant_value(program: ProgramParser, node: ast.expr) -> Any:
    """A number the program writes where a constant is needed: a literal, a module-level name (its
    value where the program was decorated), or arithmetic over those. Mistakes are ``UserError``s."""
    if type(node) is ast.Constant and isinstance(node.value, NUMBERS.literals):
        return node.value  # (a literal, the usual case: one node deep, what ``evaluate`` returns for it)
    check_expr_depth(program, node)
    src = program.src

    def lookup(name: str, at: ast.Name) -> Any:
        if name not in src.closure:
            raise program.error(f"'{name}' is not a constant defined at module level", at)
        value = src.closure_get(name, at)
        if isinstance(value, (int, float, bool)):
            return value
        raise program.error(f"'{name}' is {describe(value)}; a constant number is needed here", at)

    try:
        return evaluate(node, lookup, NUMBERS)
    except NotConstant as why:
        raise program.error(_front_end_wording(why), why.node) from None


def _front_end_wording(why: NotConstant) -> str:
    if why.kind == LITERAL:
        return f"expected a number, got {describe(why.detail)}"
    if why.kind == SYNTAX:
        return f"expected a constant, got {quoted(short_source(why.node))}"
    detail = "the result is too large for a float" if isinstance(why.detail, OverflowError) else why.detail
    return f"cannot evaluate constant {quoted(ast.unparse(why.node))}: {detail}"


def check_expr_depth(program: ProgramParser, node: ast.expr) -> None:
    if expr_depth(node) > MAX_EXPR_DEPTH:
        raise too_deep(program, node)


def too_deep(program: ProgramParser, node: ast.expr) -> UserError:
    return program.error(
        f"expression nested more than {MAX_EXPR_DEPTH} deep", node, hint="split it with intermediate variables"
    )


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
