"""Finding the programs in a user's file (by importing it, which runs its top-level code).

While the file is imported, what it prints goes to stderr: stdout carries only the compiler's
output. ``static_loader`` reads a file without running it.

The file is parsed once: the module's code is compiled from the ``ast`` tree (without the bodies
of orchestration functions, which only the front end reads), and the programs found in it hand
that tree to the front end (which would otherwise parse the file again).
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import itertools
import linecache
import os
import sys
import threading
import traceback
import warnings

from .collector import collector_paused
from .errors import Span, UsageError, UserError
from .suggest import unknown_name

_counter = itertools.count()


def load_programs(path: str, python_warning=None) -> list:
    """Import ``path`` and return its ``@pl.program`` objects in definition order.

    What Python's compiler warns about the file (an invalid escape in a string, ``x is 1``, a
    subscripted function: SyntaxWarning, or DeprecationWarning before Python 3.12) goes to ``python_warning(message, span)`` when given (the CLI prints them
    as its own warnings), else are warned as Python would.

    The import borrows process-wide state and gives it back (``_importing``): the module is in
    ``sys.modules`` and the file's directory first on ``sys.path`` only while its top-level code
    runs, and what that code prints goes to stderr. Imports from several threads take turns."""
    from nanopass.dsl import Program
    from nanopass.passes.frontend.source import ParsedFile

    data = check_readable(path)
    name = f"_nanopass_user_{next(_counter)}_{os.path.splitext(os.path.basename(path))[0]}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise UserError(f"{path}: cannot be imported as a Python file")
    module = importlib.util.module_from_spec(spec)
    linecache.checkcache(path)  # messages quote lines through linecache (so may the front end): not a stale copy
    try:
        tree, code = parse_and_compile(data, path, python_warning)
        with _importing(name, module, os.path.dirname(os.path.abspath(path))):
            exec(code, module.__dict__)
    except UserError:
        raise
    except SyntaxError as error:
        span = Span(error.filename or path, error.lineno or 1, max(0, (error.offset or 1) - 1))
        raise UserError(f"Python syntax error: {error.msg}", span) from None
    except (Exception, SystemExit) as error:  # noqa: BLE001 - the user's code raised; report where
        span = _span_in_file(error, path)
        if span is None and isinstance(error, (RecursionError, MemoryError)):
            raise too_deep_for_python(path) from None
        raise UserError(f"importing the file raised {type(error).__name__}: {error}", span) from None
    programs = [value for value in vars(module).values() if isinstance(value, Program)]
    if tree is not None and any(hasattr(value, "__pl_jit__") for value in vars(module).values()):
        from nanopass.passes.frontend.jit import jit_classes
        from nanopass.passes.frontend.source import ProgramSource
        from nanopass.static_loader import StaticProgram

        text = importlib.util.decode_source(data)
        programs += [StaticProgram(ProgramSource(cls.name, path, text, cls, module.__dict__))
                     for cls in jit_classes(tree, path, text)]
    if not programs:
        raise UserError(f"{path}: no @pl.program class found")
    if tree is not None:
        parsed = ParsedFile(path, importlib.util.decode_source(data), tree)
        for program in programs:
            program.parsed_file = parsed
    return programs


# Held while a user's file runs: ``sys.path``, ``sys.stdout`` and ``sys.modules`` are the process's,
# and two imports changing them at once would each restore what the other changed. Reentrant: the
# user's file may itself load one.
_import_lock = threading.RLock()


@contextlib.contextmanager
def _importing(name: str, module, directory: str):
    """While the block runs (one at a time): ``module`` is ``sys.modules[name]`` (as for any import,
    which the module's own code may rely on), ``directory`` is first on ``sys.path`` (its sibling
    files import), and stdout goes to stderr. Afterwards ``sys.modules`` and ``sys.path`` no
    longer hold them: a compile leaves the host's as it found them."""
    with _import_lock:
        sys.modules[name] = module
        sys.path.insert(0, directory)
        try:
            with contextlib.redirect_stdout(sys.stderr):
                yield
        finally:
            if sys.modules.get(name) is module:
                del sys.modules[name]
            if sys.path and sys.path[0] == directory:
                sys.path.pop(0)
            elif directory in sys.path:  # the file's code put entries before it
                sys.path.remove(directory)


def parse_and_compile(data: bytes, path: str, python_warning=None) -> tuple[ast.Module | None, object]:
    """The file's ``ast`` tree and the module's code compiled from it, as the import system would
    compile the file (same flags, same errors), except for the bodies of orchestration functions.

    An orchestration function's body is DSL: the front end reads it from the tree and reports
    what it does not accept, and Python never runs it (its ``pl`` calls would raise). The module
    is compiled with each such body elided (``_without_orchestration_bodies``), which is most of
    the compiler's work for a large program; everything else (imports, constants, annotations,
    decorators, kernels, parameters) compiles and runs as written.

    Python converts a tree back with a recursion bound that the text compiler does not have: a file
    nested too deeply for that is compiled from its text instead, and without a tree if
    ``ast.parse`` itself gives up (the front end then parses the file, as for any program). No
    user code runs here, so the collector is paused (the tree is acyclic). ``python_warning``: as in
    ``load_programs``.
    """
    if python_warning is None:
        return _parse_and_compile(data, path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SyntaxWarning)
        warnings.simplefilter("always", DeprecationWarning)  # (Python 3.11's invalid escapes)
        compiled = _parse_and_compile(data, path)
    for warning in caught:
        if issubclass(warning.category, (SyntaxWarning, DeprecationWarning)) and warning.filename == path:
            line = warning.lineno or 1
            text = linecache.getline(warning.filename, line)  # (Python gives no column: the line's first)
            python_warning(f"Python: {warning.message}", Span(warning.filename, line, len(text) - len(text.lstrip())))
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno or 1)
    return compiled


def _parse_and_compile(data: bytes, path: str) -> tuple[ast.Module | None, object]:
    with collector_paused():
        try:
            tree = ast.parse(data, path)
        except (RecursionError, MemoryError):
            tree = None
        if tree is not None:
            with contextlib.suppress(RecursionError, MemoryError):
                return tree, compile(_without_orchestration_bodies(tree), path, "exec", dont_inherit=True)
        return tree, compile(data, path, "exec", dont_inherit=True)


def _without_orchestration_bodies(tree: ast.Module) -> ast.Module:
    """A shallow copy of ``tree`` in which each method of a top-level class decorated
    ``@<m>.function(type=<m>.FunctionType.Orchestration, ...)`` has the body ``pass`` (at the
    place of its first statement). ``tree`` itself is not changed."""
    body = []
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef) and any(_is_orchestration(m) for m in stmt.body):
            stmt = _copy_node(stmt, body=[_elided(m) if _is_orchestration(m) else m for m in stmt.body])
        body.append(stmt)
    return _copy_node(tree, body=body)


def _is_orchestration(stmt: ast.stmt) -> bool:
    if not isinstance(stmt, ast.FunctionDef):
        return False
    for deco in stmt.decorator_list:
        if isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute) and deco.func.attr == "function":
            for kw in deco.keywords:
                kind = kw.value
                if kw.arg == "type" and isinstance(kind, ast.Attribute) and kind.attr == "Orchestration":
                    return True
    return False


def _elided(func: ast.FunctionDef) -> ast.FunctionDef:
    first = func.body[0]
    stub = ast.Pass(
        lineno=first.lineno, col_offset=first.col_offset, end_lineno=first.lineno, end_col_offset=first.col_offset
    )
    return _copy_node(func, body=[stub])


def _copy_node(node: ast.AST, **changes) -> ast.AST:
    copy = type(node)(**{name: getattr(node, name) for name in node._fields})
    for name in node._attributes:
        if hasattr(node, name):
            setattr(copy, name, getattr(node, name))
    for name, value in changes.items():
        setattr(copy, name, value)
    return copy


def check_readable(path: str) -> bytes:
    """The file's bytes, after checking that it is a readable UTF-8 text file."""
    if not os.path.exists(path):
        raise UserError(f"{path}: no such file")
    if os.path.isdir(path):
        raise UserError(f"{path}: is a directory, not a Python file")
    if not os.path.isfile(path):
        raise UserError(f"{path}: is not a regular file")
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise UserError(f"{path}: cannot be read ({error.strerror})") from None
    if b"\0" in data:
        raise UserError(f"{path}: is a binary file, not a Python file")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{path}: is not UTF-8 text") from None
    return data


def too_deep_for_python(path: str) -> UserError:
    """Python's parser gave up on the file (RecursionError or MemoryError, no position of its own):
    the error points at the file's longest line, where such nesting usually is."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines() or [""]
    longest = max(range(len(lines)), key=lambda i: len(lines[i]))
    return UserError("the file is nested too deeply for Python's parser", Span(path, longest + 1, 0),
                     hint="split deeply nested expressions with intermediate variables")


def _span_in_file(error: BaseException, path: str) -> Span | None:
    target = os.path.abspath(path)
    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        if os.path.abspath(frame.filename) == target:
            return Span(path, frame.lineno or 1, (frame.colno or 0) if hasattr(frame, "colno") else 0)
    return None


def pick_program(programs: list, name: str | None, path: str):
    if name is not None:
        for program in programs:
            if program.name == name:
                return program
        raise UsageError(unknown_name("program", name, [p.name for p in programs], where=f"{path}: "))
    if len(programs) > 1:
        names = ", ".join(p.name for p in programs)
        raise UserError(f"{path}: holds several programs ({names}); choose one with --program NAME")
    return programs[0]
