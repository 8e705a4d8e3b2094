"""The framework's two error families.

``UserError`` is the user's mistake: it carries a source span (file, line, column) and is shown
as ``FILE:LINE:COL: error: message`` with the source line, never with a traceback.
``InternalError`` is the compiler's mistake: it names the pass and the node at fault.
``GrammarError`` (an internal error) is raised when a node is built with a field that its
language's grammar does not allow.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Span(NamedTuple):
    """A position in a source file: 1-based ``line``, 0-based ``col`` (as Python's ``ast`` gives
    them; the IR text's ``@line:col`` keeps this base too).

    Printed, the column is 1-based, as GCC, clang and editors expect ``FILE:LINE:COL``:
    ``str(span)`` and ``display_col`` are what every message, warning, note, report and JSON
    shows; ``col`` is what code computes with (a caret is ``col`` characters in).

    A named tuple: immutable, compared and hashed by value, and about twice as cheap to build as
    a frozen dataclass (the front end builds one per name, binder and task, as
    ``tuple.__new__(Span, (file, line, col))``: 1,630 instructions built and freed, a plain
    tuple 300; a slots class built as nodes are would take 1,410 and need equality, hashing,
    ordering and unpacking of its own)."""

    file: str
    line: int
    col: int

    @property
    def display_col(self) -> int:
        """The column as people count it (the first character is column 1)."""
        return self.col + 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col + 1}"


class NanopassError(Exception):
    """Root of every error the compiler raises on purpose."""


class UserError(NanopassError):
    """A mistake in the program being compiled, located in its source."""

    def __init__(self, message: str, span: Span | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.hint = hint
        # what the names the message quotes are, where the text at the span shows others (an
        # inline function's copy, ``nanopass.inline_copies``); filled in by whoever holds the records
        self.notes: tuple[str, ...] = ()

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span else ""
        return f"{where}error: {self.message}"

    def located(self, span: Span | None) -> "UserError":
        """Fill in a span if the error has none yet; returns self."""
        if self.span is None:
            self.span = span
        return self


class UsageError(UserError):
    """A mistake in the command line (or the call) rather than in the program: a flag's value that
    names nothing (a pass, a language, a program, a function, a parameter) or does not parse.
    The command line exits 2 on it."""


class InternalError(NanopassError):
    """A broken compiler invariant; names the pass (when known) and the offending node."""

    def __init__(self, message: str, *, pass_name: str | None = None, node: Any = None):
        super().__init__(message)
        self.message = message
        self.pass_name = pass_name
        self.node = node

    def __str__(self) -> str:
        where = f"in pass '{self.pass_name}': " if self.pass_name else ""
        node = ""
        if self.node is not None:
            text = _short(self.node)
            node = f" [node: {text}]"
        return f"internal error: {where}{self.message}{node}"


class GrammarError(InternalError):
    """A node built with a field its grammar forbids (nanopass's 'expected X but received Y')."""

    def __init__(self, production: str, field: str, expected: str, received: Any):
        super().__init__(
            f"expected {expected} but received {_short(received)} "
            f"in field '{field}' of ({production} ...)"
        )
        self.production = production
        self.field = field
        self.expected = expected
        self.received = received


class VerifyError(InternalError):
    """A tree that violates a language invariant (checked by the pipeline driver)."""


def quoted(text: str) -> str:
    """Source text in quotes for a message: 'x + 1', or "f('M')" when it holds single quotes itself."""
    return f'"{text}"' if "'" in text else f"'{text}'"


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
