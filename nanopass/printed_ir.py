"""The existing compiler's printed IR as input: ``compile_text`` for a compiler in the same process,
and the programs of a printed file for ``nanopass run --input printed-ir``.

The text is read with ``ast`` only (nothing of it runs), as ``--no-exec`` reads a file, with
``import pypto.language as pl`` (the printing compiler's own module) standing for
``nanopass.dsl``. A program class in the printed form is rewritten into the DSL by
``passes/frontend/printed_form.py``; the analysis results it carries (``attrs={...}``) are
hints, checked against what the project's passes derive (``printed_hints``), never followed.
"""

from __future__ import annotations

import ast
import re

from nanopass.errors import UserError
from nanopass.static_loader import StaticProgram

PRINTING_MODULES = ("pypto.language",)  # the printing compiler's DSL module, read as nanopass.dsl


class PrintedProgram(StaticProgram):
    """A program class of a printed text: a ``StaticProgram`` whose ``hints`` are those it carries."""

    def __repr__(self) -> str:
        return f"<nanopass program {self.name} (printed IR)>"


def passes_for(program, func: str | None, passes=None) -> list | None:
    """``passes`` (None: the pipeline's) as ``program`` needs them: ``printed_passes`` for a class
    in the printed form, else unchanged."""
    hints = program.hints(func) if hasattr(program, "hints") else None
    return printed_passes(passes) if hints is not None else passes


def printed_passes(passes=None) -> list:
    """``passes`` (the pipeline's by default) with ``convert_printed_ssa`` for ``convert_to_ssa``: a
    printed program in SSA form keeps its names and carries."""
    from nanopass.passes.convert_printed_ssa import ConvertPrintedSsa
    from nanopass.passes.convert_to_ssa import ConvertToSsa
    from nanopass.passes.pipeline import PIPELINE

    return [ConvertPrintedSsa if p is ConvertToSsa else p for p in (PIPELINE.passes if passes is None else passes)]


def load_printed_text(text: str, filename: str = "<printed-ir>") -> list[PrintedProgram]:
    """The ``@pl.program`` classes of ``text`` in order, read without running anything."""
    from nanopass import dsl
    from nanopass.passes.frontend.source import ProgramSource, program_classes
    from nanopass.static_loader import ModuleScope

    try:
        tree = ast.parse(text, filename)
    except SyntaxError as error:
        from nanopass.errors import Span

        span = Span(filename, error.lineno or 1, max(0, (error.offset or 1) - 1))
        raise UserError(f"Python syntax error: {error.msg}", span) from None
    programs: dict[str, PrintedProgram] = {}
    decorated = {id(node) for node in program_classes(tree)}
    scope = ModuleScope()
    for stmt in tree.body:
        if id(stmt) in decorated:
            source = ProgramSource(stmt.name, filename, text, stmt, dict(scope.names))
            programs.pop(stmt.name, None)
            programs[stmt.name] = PrintedProgram(source)
        scope.statement(stmt)
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.name in PRINTING_MODULES and alias.asname:
                    scope.names[alias.asname] = dsl
    if not programs:
        raise UserError(f"{filename}: no @pl.program class found")
    return list(programs.values())


def load_printed_file(path: str) -> list[PrintedProgram]:
    from nanopass.loader import check_readable

    check_readable(path)
    with open(path, encoding="utf-8") as handle:
        return load_printed_text(handle.read(), path)  # spans name the file as given, as the importing reader's do


_PRINTED_DECORATOR = re.compile(r"^[ \t]*@[\w.]*function\([^\n]*\b(?:level|role)[ \t]*=", re.MULTILINE)


def looks_printed(text: str) -> bool:
    """Whether ``text`` holds a program class in the printed form (``nanopass run`` detects it):
    a scan of the text first (a DSL file is not parsed an extra time), then its ``ast``."""
    from nanopass.passes.frontend.printed_form import is_printed
    from nanopass.passes.frontend.source import program_classes

    if not _PRINTED_DECORATOR.search(text):
        return False
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return any(is_printed(node) for node in program_classes(tree))


def compile_text(
    text: str,
    func: str | None = None,
    *,
    program: str | None = None,
    abi: str = "seed",
    backend: str = "Ascend910B",
    filename: str = "<printed-ir>",
    analyze_auto_scopes_for_deps: bool = False,
    order_write_after_read: bool = True,
    verify: bool = True,
    keep_stages: bool = True,
):
    """Compile one orchestration function of the program in ``text`` (the existing compiler's
    printed IR, as written or after its pipeline, or the DSL) to C++: the ``OrchestrationResult``
    of ``generate_orchestration``. Hints the text carries that disagree with what the project
    derives are notes of the stage that derives them (``result.stages[...].notes``).

    ``program`` picks a class when the text holds several; errors are ``UserError``s located in
    the text (``filename`` names it), compiler bugs ``InternalError``s. ``backend`` as for
    ``generate_orchestration``."""
    from nanopass.api import check_backend, collector_paused, needed_by_result, result_from_stages, run_pipeline
    from nanopass.loader import pick_program
    from nanopass.pipeline import PipelineError
    from nanopass.printed_hints import HintChecker

    check_backend(backend)
    options = {"analyze_auto_scopes_for_deps": analyze_auto_scopes_for_deps, "order_war": order_write_after_read}
    with collector_paused():
        chosen = pick_program(load_printed_text(text, filename), program, filename)
        tree = chosen.surface(func)
        try:
            stages = run_pipeline(
                tree, func, options=options, verify=verify, observer=HintChecker.of(chosen, func),
                keep_tree=None if keep_stages else needed_by_result, passes=printed_passes(),
            )
        except PipelineError as failure:
            raise failure.error from failure.error.__cause__
        return result_from_stages(stages, abi, backend)


__all__ = ["PrintedProgram", "compile_text", "load_printed_file", "load_printed_text", "looks_printed", "printed_passes"]
