"""What the front end records of each inline function's copy, and the notes an error or warning
gets from those records.

A call of an ``@pl.function(type=pl.FunctionType.Inline)`` function is replaced by a copy of its
body (``passes/frontend/ops/inlining.py``, reference-surface.md section 5): each parameter reads
the caller's argument, each variable of the function is renamed ``<name>_inline<k>``. A copy's
positions are the function's, so an error found in it points at the function's text while its
message quotes the copy's names. ``copy_notes`` says what those names are, from the records alone
(no source is read again).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable

from .errors import Span, UserError
from .rewrite import PassWarning


@dataclass(frozen=True)
class InlineCopy:
    """One expansion of an inline function at one call (in the order the front end made them)."""

    function: str  # the inline function's name
    file: str  # the file of its text
    body: tuple[int, int]  # the first and the last line of its body: every position of the copy is among them
    call: Span  # the call the copy replaces
    arguments: tuple[tuple[str, str], ...]  # (parameter, the variable the call passes for it), in order
    renamed: tuple[tuple[str, str], ...]  # (the copy's name, the function's name) of each of its own variables
    within: "InlineCopy | None" = None  # the copy whose text holds the call (a call in an inline function)

    def holds(self, span: Span | None) -> bool:
        """Whether ``span`` is a position of this copy's text (the function's body)."""
        return span is not None and span.file == self.file and self.body[0] <= span.line <= self.body[1]


_QUOTED = re.compile(r"'(\w+)'")


def copy_notes(message: str, span: Span | None, hint: str | None, copies: Iterable[InlineCopy]) -> tuple[str, ...]:
    """The notes for the names quoted in ``message`` and ``hint`` (in the order quoted):

    - a copy's variable: which variable of which function it is, and for which call (whatever
      the position: each copy's names are its own);
    - a caller's variable a copy's parameter reads, when ``span`` is in that function's body: one
      note per call that passes it, naming the parameters it is passed for. The note states what
      the call passes; the message may quote the name for another of its uses (the caller's own).
    """
    copies = list(copies)
    if not copies:
        return ()
    notes: list[str] = []
    for name in dict.fromkeys(_QUOTED.findall(message) + (_QUOTED.findall(hint) if hint else [])):
        for copy in copies:
            original = dict(copy.renamed).get(name)
            if original is not None:
                notes.append(f"'{name}' is the variable '{original}' of the inline function '{copy.function}', "
                             f"renamed in the copy made for {_call_text(copy)}")
        for copy in copies:
            if not copy.holds(span):
                continue
            params = [param for param, argument in copy.arguments if argument == name]
            if params:
                notes.append(f"'{name}' is the argument {_call_text(copy)} passes for the "
                             f"{_parameters_text(params)} of the inline function '{copy.function}'")
    return tuple(dict.fromkeys(notes))  # (a call in a pl.unroll body is copied once per iteration)


def _call_text(copy: InlineCopy) -> str:
    """``the call at line N``, and, for a call in an inline function, the copy it is in (its
    arguments are that copy's names, not the names its text shows)."""
    text = f"the call at line {copy.call.line}"
    if copy.within is not None:
        text += f" (in the copy of '{copy.within.function}' made for {_call_text(copy.within)})"
    return text


def _parameters_text(params: list[str]) -> str:
    if len(params) == 1:
        return f"parameter '{params[0]}'"
    return "parameters " + ", ".join(f"'{p}'" for p in params[:-1]) + f" and '{params[-1]}'"


def note_error(error: UserError, copies: Iterable[InlineCopy]) -> UserError:
    """``error`` with its ``notes`` filled in from ``copies`` (kept when it has some); returns it."""
    if not error.notes:
        error.notes = copy_notes(error.message, error.span, error.hint, copies)
    return error


def note_warnings(warnings: list[PassWarning], copies: Iterable[InlineCopy]) -> None:
    """Each warning of the list replaced by itself with its ``notes`` from ``copies`` (when it has none yet)."""
    copies = list(copies)
    if not copies:
        return
    for i, warning in enumerate(warnings):
        if not warning.notes:
            notes = copy_notes(warning.message, warning.span, warning.hint, copies)
            if notes:
                warnings[i] = replace(warning, notes=notes)
