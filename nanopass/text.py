"""The text form shared by every language, and its parser: ``parse(L, unparse(t)) == t``.

A node prints as ``(Production field ...)``; a tuple field as ``[item ...]``; an absent optional
field as ``_``; terminals through their own ``unparse``. Lines are broken only where a node does
not fit in ``width`` columns, so the output is deterministic and diffs well. Parsing is directed
by the grammar: the field kinds say how each token is read.

The *labelled* form (``unparse(t, labelled=True)``) writes each field of a node of several
fields as ``name: value``: ``(Let var: (Binder x) value: (Var y))``. The parser reads either form (a field's label, when
present, must be the grammar's name for that field), so ``parse(L, unparse(t, labelled=True))
== t`` too. No value prints as an atom ending in ``:`` (such a string is quoted), so a label is
never mistaken for a value.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import Span, UserError
from .language import Field, Language, Node, Terminal

# ---------------------------------------------------------------------------------------------
# Printing


def unparse(node: Any, width: int = 100, show_spans: bool = False, labelled: bool = False) -> str:
    """The text form of a node (or a tuple of nodes); with ``labelled``, fields show their names."""
    printer = _Printer(width, show_spans, labelled)
    lines: list[str] = []
    if isinstance(node, tuple):
        printer.emit_list(node, None, 0, lines, "")
    else:
        printer.emit_node(node, 0, lines, "")
    return "\n".join(lines)


class Unparser:
    """``unparse`` of many trees that share sub-trees (the stages of one run): the text of a node
    that the tree before held too is laid out once. Nodes are remembered by identity, so the
    trees given are kept alive as long as the ``Unparser``; the layouts kept are those the last
    tree used (a tree's own nodes, down to the first it took whole from the one before), so that
    they take the memory of about one tree, not of every tree so far."""

    def __init__(self, width: int = 100, labelled: bool = False):
        self.printer = _Printer(width, False, labelled, shared=True)
        self.trees: list[Any] = []

    def unparse(self, node: Any) -> str:
        self.trees.append(node)
        lines: list[str] = []
        if isinstance(node, tuple):
            self.printer.emit_list(node, None, 0, lines, "")
        else:
            self.printer.emit_node(node, 0, lines, "")
        self.printer.next_generation()
        return "\n".join(lines)


class OneLine:
    """One-line texts of many nodes of one tree, or of trees that share sub-trees (then the nodes
    given are kept alive as long as the ``OneLine``); the text of a shared node is made once
    (between ``next_generation`` calls, and from one such span to the next: a text not asked for
    in a span is forgotten after the next)."""

    def __init__(self, labelled: bool = False):
        self.printer = _Printer(10**9, False, labelled)
        self._texts: dict[tuple[int, frozenset[str]], tuple[Node, str]] = {}
        self._older: dict[tuple[int, frozenset[str]], tuple[Node, str]] = {}

    def next_generation(self) -> None:
        """Forget the texts not asked for since the call before (and the printer's memos alike)."""
        self._older, self._texts = self._texts, {}
        self.printer.next_generation()

    def text(self, node: Node, skip: frozenset[str] = frozenset()) -> str:
        """``node`` on one line, the fields named in ``skip`` written as ``[…]``."""
        key = (id(node), skip)
        known = self._texts.get(key)
        if known is None:
            known = self._older.get(key)
            if known is not None:
                self._texts[key] = known
        if known is not None and known[0] is node:
            return known[1]
        printer = self.printer
        parts = [printer.head(node)]
        for spec in node._field_specs:
            value = "[…]" if spec.name in skip else printer.flat(getattr(node, spec.name), node._terminals.get(spec.kind))
            parts.append(printer.label(node, spec) + value)
        text = "(" + " ".join(parts) + ")"
        self._texts[(id(node), skip)] = (node, text)
        return text


class _Printer:
    """Lays a tree out in lines; a field's terminal comes from the node class that owns it."""

    def __init__(self, width: int, show_spans: bool, labelled: bool = False, shared: bool = False):
        self.width = width
        self.show_spans = show_spans
        self.labelled = labelled
        self._flat: dict[int, str | None] = {}
        # with ``shared`` (``Unparser``): the lines of each node laid out over several lines, by
        # (node, indent, prefix), so that a sub-tree several trees hold is laid out once
        self._lines: dict[tuple[int, int, str], list[str]] | None = {} if shared else None
        # (shared: the memos of the generation before, ``next_generation``; an entry used again
        # moves to the current one)
        self._older_flat: dict[int, str | None] = {}
        self._older_lines: dict[tuple[int, int, str], list[str]] = {}

    def next_generation(self) -> None:
        """Forget the memos not used since the call before: a tree's nodes, down to those whose
        whole text was remembered, carry theirs on to the next tree."""
        self._older_flat, self._flat = self._flat, {}
        if self._lines is not None:
            self._older_lines, self._lines = self._lines, {}

    # Flat renderings are memoised per node; a node longer than the width records None, so each
    # node's flat text is built at most once and the whole print is linear in the tree size.
    def flat(self, value: Any, terminal: Terminal | None) -> str | None:
        if value is None:
            return "_"
        if isinstance(value, tuple):
            parts = []
            total = 1
            for item in value:
                text = self.flat(item, terminal)
                if text is None:
                    return None
                total += len(text) + 1
                if total > self.width:
                    return None
                parts.append(text)
            return "[" + " ".join(parts) + "]"
        if terminal is not None:
            return terminal.unparse(value)
        key = id(value)
        if key in self._flat:
            return self._flat[key]
        if key in self._older_flat:
            result = self._flat[key] = self._older_flat[key]
            return result
        parts = [self.head(value)]
        total = len(parts[0]) + 2
        result: str | None = None
        labels = self.labelled and len(value._field_specs) > 1
        terminals = value._terminals
        for spec in value._field_specs:
            text = self.flat(getattr(value, spec.name), terminals.get(spec.kind))
            if text is None:
                break
            if labels:
                text = spec.name + ": " + text
            total += len(text) + 1
            if total > self.width:
                break
            parts.append(text)
        else:
            result = "(" + " ".join(parts) + ")"
        self._flat[key] = result
        return result

    def head(self, node: Node) -> str:
        if self.show_spans and node.span is not None:
            return f"{node._production} @{node.span.line}:{node.span.col}"
        return node._production

    def emit_node(self, node: Node, indent: int, out: list[str], prefix: str) -> None:
        text = self.flat(node, None)
        if text is not None and indent + len(prefix) + len(text) <= self.width:
            out.append(" " * indent + prefix + text)
            return
        if self._lines is None:
            self._emit_lines(node, indent, out, prefix)
            return
        key = (id(node), indent, prefix)
        lines = self._lines.get(key)
        if lines is None:
            lines = self._older_lines.get(key)
            if lines is not None:
                self._lines[key] = lines
            else:
                lines = self._lines[key] = []
                self._emit_lines(node, indent, lines, prefix)
        out.extend(lines)

    def _emit_lines(self, node: Node, indent: int, out: list[str], prefix: str) -> None:
        line = " " * indent + prefix + "(" + self.head(node)
        specs = node._field_specs
        # Leading short fields stay on the head line: (For i (Int 0 INDEX) ...
        i = 0
        while i < len(specs):
            text = self.flat(getattr(node, specs[i].name), node._terminals.get(specs[i].kind))
            if text is None or len(text) > 40 or len(line) + 1 + len(text) > self.width:
                break
            line += " " + self.label(node, specs[i]) + text
            i += 1
        out.append(line)
        child = indent + len(prefix) + 2
        for spec in specs[i:]:
            self.emit_value(getattr(node, spec.name), node._terminals.get(spec.kind), child, out, self.label(node, spec))
        out[-1] += ")"

    def label(self, node: Node, spec: Field) -> str:
        """``name: `` in the labelled form, for a node of more than one field."""
        return f"{spec.name}: " if self.labelled and len(node._field_specs) > 1 else ""

    def emit_value(self, value: Any, terminal: Terminal | None, indent: int, out: list[str], prefix: str) -> None:
        if isinstance(value, tuple):
            self.emit_list(value, terminal, indent, out, prefix)
        elif isinstance(value, Node):
            self.emit_node(value, indent, out, prefix)
        else:
            out.append(" " * indent + prefix + self.flat(value, terminal))

    def emit_list(self, items: tuple, terminal: Terminal | None, indent: int, out: list[str], prefix: str) -> None:
        text = self.flat(items, terminal)
        if text is not None and indent + len(prefix) + len(text) <= self.width:
            out.append(" " * indent + prefix + text)
            return
        if not items:
            out.append(" " * indent + prefix + "[]")
            return
        self.emit_value(items[0], terminal, indent, out, prefix + "[")
        inner = indent + len(prefix) + 1
        for item in items[1:]:
            self.emit_value(item, terminal, inner, out, "")
        out[-1] += "]"


# ---------------------------------------------------------------------------------------------
# Parsing

_TOKEN = re.compile(r'\s*(?:(?P<open>[(\[])|(?P<close>[)\]])|(?P<str>"(?:[^"\\]|\\.)*")|(?P<atom>[^\s()\[\]"]+))')


class TextSyntaxError(UserError):
    """A malformed text form (reported with the line and column in the text)."""


def _tokenize(source: str, filename: str) -> list[tuple[str, str, int]]:
    tokens = []
    pos = 0
    n = len(source)
    while True:
        m = _TOKEN.match(source, pos)
        if m is None:
            rest = source[pos:]
            if rest.strip():
                raise TextSyntaxError("unreadable text", _span_at(source, pos, filename))
            break
        kind = m.lastgroup
        tokens.append((kind, m.group(kind), m.start(kind)))
        pos = m.end()
        if pos >= n:
            break
    return tokens


def is_labelled(source: str) -> bool:
    """Whether ``source`` is in the labelled form: some field carries its name (no value prints as an
    atom ending in ``:``, so an atom that does is a label)."""
    return any(kind == "atom" and token.endswith(":") for kind, token, _ in _tokenize(source, "<text>"))


def _span_at(source: str, offset: int, filename: str) -> Span:
    line = source.count("\n", 0, offset) + 1
    col = offset - (source.rfind("\n", 0, offset) + 1)
    return Span(filename, line, col)


def _unquote(token: str) -> str:
    body = token[1:-1]
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            nxt = body[i + 1]
            if nxt == "n":
                out.append("\n")
                i += 2
            elif nxt == "t":
                out.append("\t")
                i += 2
            elif nxt == "x":
                out.append(chr(int(body[i + 2 : i + 4], 16)))
                i += 4
            else:
                out.append(nxt)
                i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def parse(language: Language, source: str, nonterminal: str | None = None, filename: str = "<text>") -> Any:
    """Read the text form of a ``nonterminal`` (default: the language's entry) of ``language``."""
    parser = _Parser(language, source, filename)
    value = parser.value(Field("root", nonterminal or language.entry))
    if parser.pos != len(parser.tokens):
        parser.fail("unexpected text after the end")
    return value


class _Parser:
    def __init__(self, language: Language, source: str, filename: str):
        self.language = language
        self.source = source
        self.filename = filename
        self.tokens = _tokenize(source, filename)
        self.pos = 0

    def fail(self, message: str):
        offset = self.tokens[self.pos][2] if self.pos < len(self.tokens) else len(self.source)
        raise TextSyntaxError(message, _span_at(self.source, offset, self.filename))

    def next(self) -> tuple[str, str, int]:
        if self.pos >= len(self.tokens):
            self.fail("unexpected end of text")
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def value(self, field: Field) -> Any:
        if field.many:
            kind, tok, _ = self.next()
            if tok != "[":
                self.pos -= 1
                self.fail(f"expected '[' for {field.spec()}")
            items = []
            single = Field(field.name, field.kind)
            while True:
                nxt = self.peek()
                if nxt is None:
                    self.fail("unclosed '['")
                if nxt[1] == "]":
                    self.pos += 1
                    return tuple(items)
                items.append(self.value(single))
        if field.optional:
            nxt = self.peek()
            if nxt is not None and nxt[0] == "atom" and nxt[1] == "_":
                self.pos += 1
                return None
            return self.value(Field(field.name, field.kind))
        if field.kind in self.language.terminals:
            return self.terminal(self.language.terminals[field.kind])
        return self.node(field.kind)

    def label(self, spec: Field, head: str) -> None:
        """Skip the field's label, if the text has one; a label of another field is an error."""
        nxt = self.peek()
        if nxt is None or nxt[0] != "atom" or not nxt[1].endswith(":"):
            return
        if nxt[1] != f"{spec.name}:":
            self.fail(f"expected the field '{spec.name}' of ({head} ...), got the label {nxt[1]!r}")
        self.pos += 1

    def terminal(self, terminal: Terminal) -> Any:
        kind, tok, _ = self.next()
        if kind == "str":
            tok = _unquote(tok)
        elif kind != "atom":
            self.pos -= 1
            self.fail(f"expected a {terminal.name}")
        try:
            value = terminal.parse(tok)
        except (ValueError, KeyError):
            self.pos -= 1
            self.fail(f"expected a {terminal.name}, got {tok!r}")
        if not terminal.predicate(value):
            self.pos -= 1
            self.fail(f"{tok!r} is not a valid {terminal.name}")
        return value

    def node(self, nonterminal: str) -> Node:
        kind, tok, _ = self.next()
        if tok != "(":
            self.pos -= 1
            self.fail(f"expected '(' starting a {nonterminal}")
        start = self.pos
        _, head, _ = self.next()
        cls = self.language.nodes.get(head)
        if cls is None or cls not in self.language.classes(nonterminal):
            self.pos = start
            self.fail(f"{head!r} is not a production of {nonterminal} in language {self.language.name}")
        span = None
        nxt = self.peek()
        if nxt is not None and nxt[0] == "atom" and re.fullmatch(r"@\d+:\d+", nxt[1]):
            line, col = nxt[1][1:].split(":")
            span = Span(self.filename, int(line), int(col))
            self.pos += 1
        values = []
        for spec in cls._field_specs:
            self.label(spec, head)
            values.append(self.value(spec))
        kind, tok, _ = self.next()
        if tok != ")":
            self.pos -= 1
            self.fail(f"expected ')' closing ({head} ...)")
        return cls(*values, span=span)
