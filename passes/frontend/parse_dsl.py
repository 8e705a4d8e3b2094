"""The front end: a ``@pl.program`` class's source (``ast``) -> the ``surface`` language.

Reads the kernels (signatures, plus a summary of their bodies), then elaborates one
orchestration function: resolves every name (DSL variables first, then the Python names visible
where the program was decorated), infers the type of every variable, checks calls against the
kernel signatures, and reports every mistake as a ``UserError`` at the file, line and column of
the offending syntax. Nothing of the program is executed.

This module is the entry (``parse_program``); the README's "The front end" lists the modules
behind it: ``program`` reads the class, ``context`` the orchestration function, whose statements
and DSL calls are read by the handlers ``registry`` maps them to (``statements``, ``exprs`` and
the families of ``ops/``).
"""

from __future__ import annotations

import ast
from typing import Any

from nanopass.errors import UserError
from nanopass.inline_copies import note_error, note_warnings

from .limits import (MAX_ARRAY_SIZE, MAX_DIM, MAX_ENTRY_SCALARS, MAX_ENTRY_TENSORS, MAX_EXPR_DEPTH, MAX_NESTING,
                     MAX_PARALLEL_NESTING, MAX_TASK_SCALARS, MAX_TASK_TENSORS, MAX_TENSOR_DIMS, expr_depth)
from .printed_form import desugar, is_printed
from .program import ProgramParser
from .source import ProgramSource

__all__ = [  # the front end's interface; the limits are re-exported from their old home
    "parse_program", "orchestration_function_names", "expr_depth", "MAX_ARRAY_SIZE", "MAX_DIM", "MAX_ENTRY_SCALARS", "MAX_ENTRY_TENSORS",
    "MAX_EXPR_DEPTH", "MAX_NESTING", "MAX_PARALLEL_NESTING", "MAX_TASK_SCALARS", "MAX_TASK_TENSORS",
    "MAX_TENSOR_DIMS",
]


def parse_program(src: ProgramSource, func_name: str | None = None, hints: list | None = None,
                  warnings: list | None = None, inline_copies: list | None = None) -> Any:
    """The ``surface`` program for one orchestration function of a program class. One in the
    existing compiler's printed form is read through ``printed_form.desugar``, and its
    ``PrintedHints`` appended to ``hints`` when a list is given (``printed_hints`` checks them).
    The front end's warnings (``PassWarning``s of ``parse_dsl``) are appended to ``warnings``, the
    records of the inline functions' copies (``nanopass.inline_copies.InlineCopy``) to
    ``inline_copies``; the front end's errors and warnings carry the notes those records give."""
    if not src.printed and is_printed(src.classdef):
        src, found = desugar(src)
        if hints is not None:
            hints.append(found)
    parser = ProgramParser(src)
    try:
        program = parser.parse(func_name)
    except RecursionError:
        raise UserError("this statement is nested too deeply for the compiler", src.span(_deepest_statement(src.classdef)),
                        hint="split it with intermediate variables") from None
    except UserError as error:
        raise note_error(error, parser.inline_copies)
    note_warnings(parser.warnings, parser.inline_copies)
    if warnings is not None:
        warnings.extend(parser.warnings)
    if inline_copies is not None:
        inline_copies.extend(parser.inline_copies)
    return program


def orchestration_function_names(src: ProgramSource) -> list[str]:
    """The names of a program class's orchestration functions, in source order."""
    return ProgramParser(src).orchestration_names()


def _deepest_statement(root: ast.AST) -> ast.AST:
    """The statement below ``root`` whose expressions nest deepest (iteratively)."""
    best, best_depth = root, 0
    for node in ast.walk(root):
        if isinstance(node, ast.stmt) and node is not root:
            depth = max((expr_depth(child) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)), default=0)
            if depth > best_depth:
                best, best_depth = node, depth
    return best
