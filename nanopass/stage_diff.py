"""What a pass did to the IR text, for the report: a unified diff, or statement pairs.

``diff_stages(before, after)`` is the unified diff of two stages' IR texts (``difflib`` hunks over
the lines between the common head and tail). A pass that rewrites most of the text (a lowering
pass, a renaming) makes a unified diff that is the whole program in red and green; for such a
pass ``paired_statements(before_tree, after_tree)`` pairs each input statement with the output
statements it became: statements carry the source span of the statement they came from, and an
output statement without one belongs with the statement before it.
``describe_change`` picks between the two.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any, Iterator

from .language import Node
from .text import OneLine

DIFF_LINE_LIMIT = 6_000  # beyond this many lines between the common head and tail, no diff
PAIRED_SHARE = 0.5  # a diff that changes more than this share of the lines is shown as pairs
_STATEMENTS = frozenset({"Stmt", "EStmt"})
_HOLDERS = _STATEMENTS | {"Function"}  # the kinds of field that lead to statements (Program.orch)


@dataclass(frozen=True)
class StageDiff:
    """The unified diff of one stage's IR text against the previous stage's."""

    lines: tuple[str, ...] | None  # None: too large to diff here
    added: int
    removed: int

    @property
    def summary(self) -> str:
        if self.lines is None:
            return "too large to diff"
        return "unchanged" if not self.lines else f"+{self.added} −{self.removed}"


def diff_stages(before_text: str, after_text: str, before_name: str = "before", after_name: str = "after",
                context: int = 3) -> StageDiff:
    """``difflib`` hunks over the lines that differ, after trimming the common head and tail.

    Gives up (``lines`` None) when more than ``DIFF_LINE_LIMIT`` lines remain to compare:
    ``difflib`` is quadratic on the repetitive text of large programs.
    """
    a, b = before_text.splitlines(), after_text.splitlines()
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    if head == len(a) == len(b):
        return StageDiff((), 0, 0)
    start = max(0, head - context)
    a_end, b_end = min(len(a), len(a) - tail + context), min(len(b), len(b) - tail + context)
    if (a_end - start) + (b_end - start) > DIFF_LINE_LIMIT:
        return StageDiff(None, 0, 0)
    matcher = difflib.SequenceMatcher(None, a[start:a_end], b[start:b_end])
    lines = [f"--- {before_name}", f"+++ {after_name}"]
    added = removed = 0
    for group in matcher.get_grouped_opcodes(context):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        lines.append(f"@@ -{start + i1 + 1},{i2 - i1} +{start + j1 + 1},{j2 - j1} @@")
        for tag, x1, x2, y1, y2 in group:
            if tag == "equal":
                lines.extend(" " + line for line in a[start + x1:start + x2])
                continue
            lines.extend("-" + line for line in a[start + x1:start + x2])
            lines.extend("+" + line for line in b[start + y1:start + y2])
            removed += x2 - x1
            added += y2 - y1
    return StageDiff(tuple(lines), added, removed)


@dataclass(frozen=True)
class Pair:
    """One input statement (its own text, nested statements left out) and what it became."""

    where: str  # "line:col" of the source statement, or "" for statements the compiler made
    before: str  # "" when output statements come from no input statement
    after: tuple[str, ...]

    @property
    def same(self) -> bool:
        return self.after == (self.before,)


@dataclass(frozen=True)
class PairedDiff:
    pairs: tuple[Pair, ...]
    statements_before: int
    statements_after: int

    @property
    def summary(self) -> str:
        return f"{self.statements_before} statements → {self.statements_after}"


def paired_statements(before: Node | list, after: Node | list, labelled: bool = True,
                      line: OneLine | None = None) -> PairedDiff:
    """Pair each statement of ``before`` with the statements of ``after`` of the same source span
    (each a tree, or its ``statements`` already listed; ``line`` as for ``statements``)."""
    line = line or OneLine(labelled)
    inputs = before if isinstance(before, list) else statements(before, labelled, line)
    outputs = after if isinstance(after, list) else statements(after, labelled, line)
    pairs: list[list[Any]] = []  # [where, before text, [after texts]]
    by_key: dict[Any, int] = {}
    for key, text in inputs:
        if key not in by_key:
            by_key[key] = len(pairs)
        pairs.append([_where(key), text, []])
    current = None
    for key, text in outputs:
        index = by_key.get(key)
        if index is None:
            if current is None:
                pairs.insert(0, ["", "", []])
                by_key = {k: i + 1 for k, i in by_key.items()}
                current = 0
            index = current
        pairs[index][2].append(text)
        current = index
    return PairedDiff(tuple(Pair(w, b, tuple(a)) for w, b, a in pairs), len(inputs), len(outputs))


def _where(key) -> str:
    return f"{key[0]}:{key[1]}" if key else ""


def statements(tree: Node, labelled: bool = True, line: OneLine | None = None) -> list[tuple[Any, str]]:
    """(span key, one-line text) of every statement of ``tree``, as ``paired_statements`` pairs them.
    ``line`` (of the same ``labelled``) may be shared by the calls for trees that share statements."""
    return list(_statements(tree, line or OneLine(labelled)))


def _statements(tree: Node, line: OneLine) -> Iterator[tuple[Any, str]]:
    """(span key, one-line text) of every statement in program order. A statement without a span
    takes the first span inside it (not in its nested statements), else the key of the statement
    before it."""
    key = None
    for node in _walk_statements(tree):
        span = node.span or _inner_span(node)
        if span is not None:
            key = (span.line, span.col)
        yield key, line.text(node, _nested(type(node)))


def _nested(cls) -> frozenset[str]:
    """The fields of a statement class that hold statements (written ``[…]``)."""
    found = _NESTED.get(cls)
    if found is None:
        found = _NESTED[cls] = frozenset(s.name for s in cls._field_specs if s.kind in _STATEMENTS)
    return found


_NESTED: dict[type, frozenset[str]] = {}


def _inner_span(node: Node):
    for spec in node._field_specs:
        if spec.kind in _STATEMENTS:
            continue
        value = getattr(node, spec.name)
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, Node):
                span = item.span or _inner_span(item)
                if span is not None:
                    return span
    return None


def _walk_statements(node: Any) -> Iterator[Node]:
    if isinstance(node, tuple):
        for item in node:
            yield from _walk_statements(item)
        return
    if not isinstance(node, Node):
        return
    if node._nonterminal in _STATEMENTS:
        yield node
    for spec in node._field_specs:
        if spec.kind in _HOLDERS:
            yield from _walk_statements(getattr(node, spec.name))


def describe_change(before_tree, after_tree, before_text: str, after_text: str, before_name: str, after_name: str,
                    lowering: bool, labelled: bool = True, line: OneLine | None = None) -> StageDiff | PairedDiff:
    """Statement pairs for a lowering pass or a diff that changes most lines; else the diff. The
    trees may be given as their ``statements``; ``line`` is as for ``statements``."""
    diff = diff_stages(before_text, after_text, before_name, after_name)
    if before_tree is None or after_tree is None:
        return diff
    lines = max(1, before_text.count("\n") + 1, after_text.count("\n") + 1)
    if lowering or diff.lines is None or max(diff.added, diff.removed) > PAIRED_SHARE * lines:
        return paired_statements(before_tree, after_tree, labelled, line)
    return diff
