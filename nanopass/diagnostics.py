"""How errors are shown to people: one located line, the source line, a caret; no traceback."""

from __future__ import annotations

import linecache

from rich.console import Console
from rich.text import Text

from .errors import InternalError, UserError


def source_line(filename: str, line: int) -> str | None:
    text = linecache.getline(filename, line)
    return text.rstrip("\n") if text else None


def render_user_error(error: UserError, console: Console) -> None:
    """``FILE:LINE:COL: error: message``, then the source line with a caret under the column."""
    span = error.span
    head = Text()
    if span is not None:
        head.append(f"{span.file}:{span.line}:{span.col}: ", style="bold")
    head.append("error: ", style="bold red")
    head.append(error.message)
    console.print(head, highlight=False, soft_wrap=True)
    if span is not None:
        line = source_line(span.file, span.line)
        if line is not None:
            console.print(Text(f"  {span.line:>4} | {line}"), highlight=False, soft_wrap=True)
            caret = " " * (len(f"  {span.line:>4} | ") + span.col) + "^"
            console.print(Text(caret, style="bold red"), highlight=False, soft_wrap=True)
    if error.hint:
        console.print(Text(f"  help: {error.hint}", style="cyan"), highlight=False, soft_wrap=True)


def render_internal_error(error: InternalError, console: Console, report: str | None = None) -> None:
    """One line: the error (pass and node), and where to look next (``--dump-all``'s report)."""
    if report:
        hint = f"a compiler bug; the stages reached are in {report}"
    else:
        hint = "a compiler bug; rerun with --dump-all DIR to see every stage reached"
    line = Text(str(error).replace("\n", " "), style="bold red")
    line.append(f" ({hint})", style="")
    console.print(line, highlight=False, soft_wrap=True)
