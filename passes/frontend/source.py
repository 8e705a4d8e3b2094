"""Where a program's source comes from: a decorated class, or a file read without running it."""

from __future__ import annotations

import ast
import inspect
import linecache
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from nanopass.errors import Span, UserError

_new_tuple = tuple.__new__


NO_EXEC_HINT = (
    "reading a file without running it (--no-exec), a module-level constant may use literals, "
    "arithmetic over other constants, tuples and lists, pl.dynamic(\"M\") and dtypes only"
)


@dataclass(frozen=True)
class Unevaluated:
    """A module-level name whose value is unknown because the file was read, not run (``--no-exec``).

    ``reason`` completes the sentence "'NAME' ...", e.g. "is assigned from a function call at line 3".
    """

    name: str
    reason: str


@dataclass(frozen=True)
class ParsedFile:
    """A Python file's text and its ``ast`` tree, for a reader that would otherwise parse it again."""

    filename: str  # as the file's code objects name it
    text: str
    tree: ast.Module


_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # the line ends Python's tokenizer knows


def wide_lines(text: str) -> dict[int, bytes]:
    """Line number -> its UTF-8 bytes, for the lines of ``text`` with non-ASCII characters (where
    ast's byte columns are not character columns)."""
    if text.isascii():
        return {}
    return {number: line.encode("utf-8")
            for number, line in enumerate(_LINE_BREAK.split(text), start=1) if not line.isascii()}


def char_span(filename: str, wide: dict[int, bytes], line: int, col: int) -> Span:
    """The span of ast position (``line``, byte column ``col``), its column counted in characters."""
    encoded = wide.get(line)
    if encoded is not None:
        col = len(encoded[:col].decode("utf-8", errors="replace"))
    return Span(filename, line, col)


@dataclass
class ProgramSource:
    """One ``@pl.program`` class: its AST, the file it is in, and the names it may refer to."""

    name: str
    filename: str
    text: str
    classdef: ast.ClassDef
    closure: Mapping[str, Any] = field(default_factory=dict)
    printed: bool = False  # read from the existing compiler's printed IR (``printed_form``): SSA names allowed
    _wide_lines: dict[int, bytes] = field(init=False, repr=False, compare=False)  # (wide_lines)
    _lines: list[str] | None = field(default=None, init=False, repr=False, compare=False)  # (lines, once read)

    def __post_init__(self) -> None:
        self._wide_lines = wide_lines(self.text)

    def lines(self) -> list[str]:
        """The lines of ``text`` as ``ast`` numbers them (from 1: ``lines()[n - 1]``)."""
        if self._lines is None:  # (a text without "\r", the usual one, splits without the regex engine)
            self._lines = _LINE_BREAK.split(self.text) if "\r" in self.text else self.text.split("\n")
        return self._lines

    def lines_text(self, first: int, last: int) -> str:
        """Lines ``first`` to ``last`` (from 1, both included) joined by "\n", as
        ``"\n".join(lines()[first - 1:last])`` gives them; cut out of ``text`` when its lines end
        in "\n" alone and ``lines`` has not split it: no string per line of the file is made."""
        text = self.text
        if self._lines is not None or "\r" in text:
            return "\n".join(self.lines()[first - 1:last])
        if last < first:
            return ""
        start = 0
        for _ in range(first - 1):
            start = text.find("\n", start) + 1
            if not start:  # (the text has fewer lines)
                return ""
        end = len(text)
        for _ in range(text.count("\n", start) - (last - first)):  # the lines after ``last``
            end = text.rfind("\n", start, end)
        return text[start:end]

    def wide_line_numbers(self):
        """The numbers of the lines with non-ASCII characters (where ``ast``'s byte columns are
        not character columns)."""
        return self._wide_lines.keys()

    def span(self, node: ast.AST) -> Span:
        """Where ``node`` is, its column counted in characters (ast counts UTF-8 bytes); a node
        without a position of its own (``ast.arguments``) is at the class."""
        try:  # (Span's own __new__ is a Python function: a frame per span, and most nodes get one)
            line, col = node.lineno, node.col_offset
        except AttributeError:
            return Span(self.filename, self.classdef.lineno, 0)
        if self._wide_lines:  # (a file of ASCII text has none)
            wide = self._wide_lines.get(line)
            if wide is not None:
                col = len(wide[:col].decode("utf-8", errors="replace"))
        return _new_tuple(Span, (self.filename, line, col))

    def span_reader(self) -> Callable[[ast.AST], Span]:
        """``span``, as a function: for a file without non-ASCII lines (whose byte columns are
        character columns) one that reads the position alone, without ``span``'s table look-up."""
        if self._wide_lines:
            return self.span
        filename, class_line = self.filename, self.classdef.lineno

        def ascii_span(node: ast.AST) -> Span:
            try:
                return _new_tuple(Span, (filename, node.lineno, node.col_offset))
            except AttributeError:  # (no position of its own: at the class, as ``span`` says)
                return Span(filename, class_line, 0)

        return ascii_span

    def closure_get(self, name: str, node: ast.AST) -> Any:
        """The value of the Python name ``name`` (None when absent).

        A name whose value is unknown (``Unevaluated``) is a user error at its use ``node``.
        """
        value = self.closure.get(name)
        if isinstance(value, Unevaluated):
            raise UserError(f"'{name}' {value.reason}: its value is not known without running the file",
                            self.span(node), hint=NO_EXEC_HINT)
        return value


def short_source(node: ast.AST, limit: int = 60) -> str:
    """``node``'s source text for a message, on one line (a compound statement's first line and
    ``...``), cut to ``limit`` characters."""
    text = ast.unparse(node)
    first, newline, _ = text.partition("\n")
    if newline:
        text = first.rstrip() + " ..."
    return text if len(text) <= limit else text[: limit - 3] + "..."


def source_of_class(cls: type, closure: Mapping[str, Any], parsed: ParsedFile | None = None) -> ProgramSource:
    """Locate ``cls`` in its file and parse that file.

    ``parsed`` is the file the class is probably in, already parsed (by the loader): it is used when
    the class's file is that one, and the file is read (through ``linecache``) and parsed otherwise.
    """
    name = cls.__name__
    # A method's code object knows its file and line even when the module is not importable by
    # name (run_path, exec of a file, the loader's modules once loaded); a class without methods is
    # found through its module, or the ``__file__`` of the globals it was defined in.
    method_lines = [
        (f.__code__.co_filename, f.__code__.co_firstlineno)
        for f in vars(cls).values()
        if inspect.isfunction(f)
    ]
    if method_lines:
        filename = method_lines[0][0]
    else:
        try:
            filename = inspect.getsourcefile(cls) or inspect.getfile(cls)
        except (OSError, TypeError) as error:
            filename = closure.get("__file__")
            if not isinstance(filename, str):
                raise UserError(f"cannot read the source of program class '{name}': {error}") from None
    if parsed is not None and parsed.filename == filename:
        text, tree = parsed.text, parsed.tree
    else:
        text = "".join(linecache.getlines(filename))
        if not text:
            raise UserError(f"cannot read the source of program class '{name}' (file {filename})")
        tree = ast.parse(text, filename)
    candidates = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == name]
    if not candidates:  # a class defined inside a function or another class
        candidates = [node for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and node.name == name]
    wanted = {line for _, line in method_lines}
    for node in candidates:
        lines = {
            min([f.lineno] + [d.lineno for d in f.decorator_list])
            for f in node.body
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
        if wanted and wanted <= lines:
            return ProgramSource(name, filename, text, node, closure)
    if len(candidates) == 1:
        return ProgramSource(name, filename, text, candidates[0], closure)
    raise UserError(f"cannot find class '{name}' in {filename}")


def is_program_decorator(node: ast.expr) -> bool:
    """``@pl.program``, ``@program``, ``@pl.program(...)`` (any alias of the module)."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr == "program"
    return isinstance(node, ast.Name) and node.id == "program"


def program_classes(tree: ast.Module) -> list[ast.ClassDef]:
    """Top-level classes decorated with ``@pl.program``, in file order."""
    return [
        node
        for node in tree.body
        if isinstance(node, ast.ClassDef) and any(is_program_decorator(d) for d in node.decorator_list)
    ]
