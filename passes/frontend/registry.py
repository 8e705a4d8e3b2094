"""The front end's two tables: the reader of each statement class, and each DSL operation's forms.

A DSL operation is registered, by the module of its family under ``ops/``, with ``@dsl_op``: the
name the user writes after ``pl.`` (``"tensor.reshape"``), its aliases, the ``Position`` the
handler reads it in, and its parameters. An operation may have a form in several positions (one
registration each). Where a call has no form, the reader of that position refuses it with the
operation's ``misplaced`` message, else the position's own (``refusal``): an unknown ``pl.x`` is
a located ``UserError``, never skipped. A second registration of a name in a position, or of an
alias that is another operation's name, raises ``RegistryError`` at import.

Handlers are plain functions whose first argument is the ``FunctionContext`` (``cx``); by
position:

- ``VALUE``: ``x = pl.op(...)`` (or ``x: T = ...``): ``(cx, call, args) -> (expr, type)``;
- ``BINDING``: ``x = pl.op(...)`` where the operation binds ``x`` itself:
  ``(cx, call, target, stmt) -> [stmt]``;
- ``TARGETS``: any assignment, one name or several unpacked: ``(cx, call, targets, unpacked,
  stmt) -> [stmt]``;
- ``STATEMENT``: ``pl.op(...)`` alone: ``(cx, call, args) -> stmt`` (None: it makes no statement);
- ``EXPRESSION``: a scalar, wherever an expression is read (also as the value of an assignment):
  ``(cx, call, args) -> (expr, type)``; it reads its arguments with ``cx.expr``;
- ``ARGUMENT``: wrapping a task argument (``pl.no_dep(t)``): ``(cx, call) -> the wrapped node``;
- ``ITERATOR``: ``for ... in pl.op(...)``: ``(cx, stmt, call) -> [stmt]``;
- ``CONTEXT``: ``with pl.op(...):``: ``(cx, stmt, call) -> [stmt]``; registered with ``binds_as=True``
  it also reads ``with pl.op(...) as name:`` (the handler binds ``name``).

``args`` is the call's arguments bound by name from ``params`` (``None`` when the operation
declares none and reads the call itself); too many, unknown, repeated or missing arguments are
refused here, in the operation's own name.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Callable

from nanopass.errors import UserError, quoted
from nanopass.suggest import did_you_mean

from .source import short_source

if TYPE_CHECKING:
    from .context import FunctionContext


class Position(Enum):
    """Where a DSL operation is written (its forms are keyed by it). A member hashes as itself, so
    that looking a form up (every statement's) makes no Python call."""

    __hash__ = object.__hash__

    VALUE = "the value of an assignment"
    BINDING = "an assignment to one name"
    TARGETS = "an assignment"
    STATEMENT = "a statement"
    EXPRESSION = "an expression"
    ARGUMENT = "a task argument"
    ITERATOR = "a for loop's iterator"
    CONTEXT = "a with statement's context manager"


# The positions as module constants: an Enum member is slow to look up on its class (a call of
# the metaclass's __getattr__), and the readers look them up for every statement.
VALUE, BINDING, TARGETS, STATEMENT, EXPRESSION, ARGUMENT, ITERATOR, CONTEXT = Position


@dataclass(frozen=True)
class Form:
    """How one operation is read in one position."""

    handler: Callable
    params: tuple[str, ...] | None  # bound by name before the handler runs; None: it reads the call
    required: int  # how many leading params must be given
    binds_as: bool = False  # a CONTEXT form that reads ``with pl.op(...) as name:`` (the handler binds it)


@dataclass
class Op:
    """A DSL operation: its name in messages (``pl.<name>``), its forms, and its refusals."""

    name: str
    aliases: tuple[str, ...] = ()
    forms: dict[Position, Form] = field(default_factory=dict)
    misplaced: dict[Position, str] = field(default_factory=dict)  # where it has no form

    def bind(self, cx: FunctionContext, call: ast.Call, form: Form) -> dict[str, ast.expr] | None:
        """``call``'s arguments by parameter name (positional ones first), checked against ``form``."""
        names = form.params
        if names is None:
            return None
        what = self.name
        args = call.args
        if len(args) > len(names):
            raise cx.error(f"pl.{what} takes at most {len(names)} positional argument(s)", call)
        bound = dict(zip(names, args))
        for kw in call.keywords:
            key = kw.arg
            if key not in names:
                raise cx.error(f"pl.{what} has no keyword argument '{key}'", kw.value)
            if key in bound:
                raise cx.error(f"pl.{what} got '{key}' twice", kw.value)
            bound[key] = kw.value
        for required in names[: form.required]:  # (a loop, not a comprehension: no frame of its own)
            if required not in bound:
                raise cx.error(f"pl.{what} is missing argument '{required}'", call)
        return bound


class RegistryError(Exception):
    """A registration that would make a name ambiguous (a compiler bug, raised at import)."""


OPS: dict[str, Op] = {}  # every spelling (names and aliases) -> its operation
REFUSED: dict[str, str] = {}  # a DSL operation of the existing compiler refused here -> why (see refuse_op)
STATEMENTS: dict[type, Callable] = {}  # ast.stmt class -> reader (cx, stmt) -> [stmt]


def dsl_op(
    name: str,
    position: Position,
    *,
    aliases: tuple[str, ...] = (),
    params: tuple[str, ...] | None = None,
    required: int | None = None,
    misplaced: dict[Position, str] | None = None,
    binds_as: bool = False,
) -> Callable[[Callable], Callable]:
    """Register the decorated handler as ``pl.<name>``'s form in ``position``.

    ``required`` defaults to every parameter; ``aliases`` and ``misplaced`` add to what earlier
    forms of the operation declared."""

    def register(handler: Callable) -> Callable:
        op = OPS.get(name)
        if name in REFUSED or any(alias in REFUSED for alias in aliases):
            raise RegistryError(f"pl.{name} (or an alias) is refused by refuse_op; drop the refusal to register it")
        if op is not None and op.name != name:
            raise RegistryError(f"'{name}' is an alias of pl.{op.name}; register it under that name")
        if op is not None and (position in op.forms or position in op.misplaced):
            raise RegistryError(f"pl.{name} has a form or a misplaced message in position {position.name} already")
        for alias in aliases:
            if OPS.get(alias, op) is not op:
                raise RegistryError(f"alias '{alias}' of pl.{name} is already pl.{OPS[alias].name}")
        for where, message in (misplaced or {}).items():
            contradicted = op is not None and (where in op.forms or op.misplaced.get(where, message) != message)
            if where is position or contradicted:
                raise RegistryError(f"pl.{name}'s misplaced message for {where.name} contradicts another registration")
        if op is None:
            op = Op(name)
        op.forms[position] = Form(handler, params, len(params or ()) if required is None else required, binds_as)
        op.aliases += tuple(a for a in aliases if a not in op.aliases)
        op.misplaced.update(misplaced or {})
        for spelling in (name, *aliases):
            OPS[spelling] = op
        return handler

    return register


def refuse_op(name: str, message: str) -> None:
    """``pl.<name>`` (an operation of the existing DSL that nanopass does not compile) is refused
    wherever it is written, with ``message`` saying why. It is not in ``OPS``: every registered
    operation compiles."""
    if name in OPS or name in REFUSED:
        raise RegistryError(f"pl.{name} is registered or refused already")
    REFUSED[name] = message


def statement(*classes: type) -> Callable[[Callable], Callable]:
    """Register the decorated function as the reader of the ``ast.stmt`` classes given."""

    def register(reader: Callable) -> Callable:
        for cls in classes:
            if cls in STATEMENTS:
                raise RegistryError(f"ast.{cls.__name__} has two readers")
        for cls in classes:
            STATEMENTS[cls] = reader
        return reader

    return register


def names_in(position: Position) -> list[str]:
    """The operations with a form in ``position``, in registration order (each once)."""
    seen: list[str] = []
    for op in OPS.values():
        if position in op.forms and op.name not in seen:
            seen.append(op.name)
    return seen


def refusal(cx: FunctionContext, spelled: str, op: Op | None, position: Position, node: ast.AST) -> UserError:
    """The error for ``pl.<spelled>`` (``op`` when it is registered) where it has no form."""
    if op is not None and position in op.misplaced:
        return cx.error(op.misplaced[position], node)
    if op is None and spelled in REFUSED:
        return cx.error(REFUSED[spelled], node)
    if position is STATEMENT:
        return cx.error(f"this expression has no effect as a statement: {quoted(short_source(node))}", node)
    if position is EXPRESSION:
        if op is not None and VALUE in op.forms:
            return cx.error(MUST_BE_ASSIGNED, node)
        return cx.error(f"unsupported function call {quoted(short_source(node))}", node)
    return cx.error(f"unknown or unsupported operation 'pl.{spelled}' in an orchestration function", node,
                    hint=did_you_mean(spelled, list(OPS), "pl."))


MUST_BE_ASSIGNED = "tasks and tensor operations must be assigned to a name, not used inside an expression"


def spelled_list(names: list[str], suffix: str, conjunction: str) -> str:
    """``["range", "parallel"]`` -> "pl.range(...) or pl.parallel(...)" (with ``suffix="(...)"``)."""
    items = [f"pl.{n}{suffix}" for n in names]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


def describe_registry() -> list[tuple[str, str, str, str]]:
    """(name, aliases, positions, the files of its handlers) of every operation, for docs and tests;
    files are relative to ``passes/frontend/`` (``ops/tensor_views.py``)."""
    package = __name__.rsplit(".", 1)[0] + "."
    rows = []
    for spelling, op in OPS.items():
        if spelling != op.name:
            continue
        modules = {form.handler.__module__.removeprefix(package) for form in op.forms.values()}
        files = sorted(module.replace(".", "/") + ".py" for module in modules)
        rows.append((op.name, ", ".join(op.aliases), ", ".join(p.name for p in op.forms), ", ".join(files)))
    return rows

