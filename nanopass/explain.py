"""``nanopass explain PASS FILE.py``: one pass's input and output for one program, side by side.

Runs the pipeline up to and including PASS and prints the pass's signature and contract, then
the IR text (labelled: ``name: value`` fields, unless ``labelled`` is False) before and after it
as two aligned columns (``difflib`` alignment): unchanged lines
face each other; removed lines are marked ``-`` (red) on the left, added lines ``+`` (green) on
the right. With
``context`` set, runs of unchanged lines longer than twice the context are folded.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .pipeline import Stage
from .text import unparse


@dataclass(frozen=True)
class Row:
    left: str | None  # None: no line on this side
    right: str | None
    kind: str  # "same" | "changed" | "fold"


def aligned_rows(before: str, after: str, context: int | None = None) -> list[Row]:
    """The two texts as aligned rows; ``context`` folds long unchanged runs."""
    a, b = before.splitlines(), after.splitlines()
    rows: list[Row] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            rows.extend(_fold([Row(a[i], b[j1 + k], "same") for k, i in enumerate(range(i1, i2))], context, first=i1 == 0, last=i2 == len(a)))
            continue
        left, right = a[i1:i2], b[j1:j2]
        for k in range(max(len(left), len(right))):
            rows.append(Row(left[k] if k < len(left) else None, right[k] if k < len(right) else None, "changed"))
    return rows


def _fold(run: list[Row], context: int | None, first: bool, last: bool) -> list[Row]:
    if context is None:
        return run
    keep_head = 0 if first else context
    keep_tail = 0 if last else context
    if len(run) <= keep_head + keep_tail + 1:
        return run
    hidden = len(run) - keep_head - keep_tail
    fold = Row(f"⋯ {hidden} unchanged lines", f"⋯ {hidden} unchanged lines", "fold")
    return run[:keep_head] + [fold] + run[len(run) - keep_tail:]


def print_explanation(before: Stage, after: Stage, console: Console, context: int | None = None,
                      labelled: bool = True) -> None:
    head = Text()
    head.append(after.name, style="bold")
    head.append(f": {before.language.name} -> {after.language.name}")
    console.print(head)
    console.print(Text(after.contract), style="italic")
    if before.language is not after.language:
        console.print(Text(before.language.diff(after.language).rstrip("\n")), style="dim")
    column = max(40, (console.width - 1) // 2 - 2)  # two columns, each with a 2-character gutter
    before_text = unparse(before.tree, width=column, labelled=labelled)
    after_text = unparse(after.tree, width=column, labelled=labelled)
    if before_text == after_text:
        console.print(Text("The pass returned its input unchanged.", style="bold"))
    table = Table(show_lines=False, expand=True, pad_edge=False, box=None)
    table.add_column(f"input: {before.index:02d}_{before.name} ({before.language.name})", overflow="fold", ratio=1)
    table.add_column(f"output: {after.index:02d}_{after.name} ({after.language.name})", overflow="fold", ratio=1)
    for row in aligned_rows(before_text, after_text, context):
        table.add_row(_cell(row.left, row, "-", "red"), _cell(row.right, row, "+", "green"))
    console.print(table)


def _cell(line: str | None, row: Row, mark: str, colour: str) -> Text:
    """A line with a gutter mark (``-``/``+`` on changed lines), readable without colour too."""
    if line is None:
        return Text("")
    if row.kind == "fold":
        return Text("  " + line, style="dim italic")
    if row.kind == "changed":
        return Text(f"{mark} {line}", style=colour)
    return Text("  " + line)
