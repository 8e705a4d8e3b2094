"""How errors are shown to people: one located line, the source line, a caret; no traceback."""

from __future__ import annotations

import linecache
import os
from typing import IO, Sequence

from rich.console import Console
from rich.text import Text

from .errors import InternalError, Span, UserError


class _Console(Console):
    """A rich console whose broken pipe reaches the caller as ``BrokenPipeError`` (rich's own
    handler would exit 1 before the CLI could exit 141)."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


def make_console(file: IO[str], **options) -> Console:
    """The CLI's console on ``file``: no highlighting, soft wrapping, and no escape codes at all
    (neither colours nor bold) when ``NO_COLOR`` is set to anything but the empty string."""
    options.setdefault("highlight", False)
    options.setdefault("soft_wrap", True)
    if os.environ.get("NO_COLOR"):
        options["color_system"] = None
    return _Console(file=file, **options)


def source_line(filename: str, line: int) -> str | None:
    text = linecache.getline(filename, line)
    return text.rstrip("\n") if text else None


def render_user_error(error: UserError, console: Console) -> None:
    """``FILE:LINE:COL: error: message``, then the source line with a caret under the column, the
    help line and the error's notes."""
    render_located("error", error.message, error.span, error.hint, console, error.notes)


def render_warning(message: str, span: Span | None, hint: str | None, console: Console,
                   notes: Sequence[str] = ()) -> None:
    """A warning, printed as an error is but as ``warning:`` (the compile goes on)."""
    render_located("warning", message, span, hint, console, notes)


_KIND_STYLE = {"error": "bold red", "warning": "bold magenta"}


def render_located(kind: str, message: str, span: Span | None, hint: str | None, console: Console,
                   notes: Sequence[str] = ()) -> None:
    """``FILE:LINE:COL: KIND: message``, the source line with a caret, ``help:`` when given, and
    a ``note:`` line per note (``nanopass.inline_copies.copy_notes``: what the names quoted in an
    inline function's copy are)."""
    head = Text()
    if span is not None:
        head.append(f"{span}: ", style="bold")  # the column 1-based (Span.__str__)
    head.append(f"{kind}: ", style=_KIND_STYLE[kind])
    head.append(message)
    console.print(head, highlight=False, soft_wrap=True)
    if span is not None:
        line = source_line(span.file, span.line)
        if line is not None:
            console.print(Text(f"  {span.line:>4} | {line}"), highlight=False, soft_wrap=True)
            caret = " " * (len(f"  {span.line:>4} | ") + span.col) + "^"
            console.print(Text(caret, style=_KIND_STYLE[kind]), highlight=False, soft_wrap=True)
    if hint:
        console.print(Text(f"  help: {hint}", style="cyan"), highlight=False, soft_wrap=True)
    for note in notes:
        console.print(Text(f"  note: {note}"), highlight=False, soft_wrap=True)


def render_internal_error(error: InternalError, console: Console, report: str | None = None) -> None:
    """One line: the error (pass and node), and where to look next (``--dump-all``'s report)."""
    if report:
        hint = f"a compiler bug; the stages reached are in {report}"
    else:
        hint = "a compiler bug; rerun with --dump-all DIR to see every stage reached"
    line = Text(str(error).replace("\n", " "), style="bold red")
    line.append(f" ({hint})", style="")
    console.print(line, highlight=False, soft_wrap=True)
