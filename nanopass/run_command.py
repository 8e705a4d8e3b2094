"""``nanopass run FILE``: compile a program's orchestration functions and print or write their C++.

A program with several orchestration functions compiles each of them (reference-surface.md
section 7). ``--func NAME`` picks one. Otherwise ``-o DIR`` writes ``DIR/orchestration/<name>.cpp``
for each, ``--metadata FILE`` lists each, and stdout gets the first by name (the function the
existing compiler takes by default; a note names the others). What shows one pipeline's stages
(``--stop-after``, ``--print-after``/``--print-before``, ``--dump-all``, ``--time-passes``) shows
that first function's; ``--dump-all`` says so, on stderr and atop its report.
"""

from __future__ import annotations

import contextlib
import os
import time

from rich.console import Console

from .errors import UsageError, UserError
from .progress import fan_out
from .run_output import StagePrinter, print_warnings, time_report, write_or_print_ir
from .stage_names import PRINTER

METADATA_FILE = "metadata.json"  # --dump-all DIR: what --metadata FILE holds


def cmd_run(args, out: Console, err: Console) -> int:
    from .api import collector_paused

    with collector_paused():  # once for the whole compile: loading, front end, passes, printer
        return _compile_and_write(args, out, err)


def _compile_and_write(args, out: Console, err: Console) -> int:
    from .api import (front_end_warnings_of, inline_copies_of, needed_by_result, orchestration_functions,
                      result_from_stages, run_pipeline, surface_of)
    from .cli import EXIT_OK, _chosen, _dump_writer, _for_program, _load, _options
    from .loader import pick_program
    from .metadata import metadata_json
    from .pipeline import PipelineError
    from .printed_hints import HintChecker

    if args.values and not args.dump_all:
        raise UsageError("--set is used with --dump-all (the instance graphs and hazards)")
    if args.json and not args.time_passes:
        raise UsageError("--json is used with --time-passes")
    passes = _chosen(args)
    times = {}
    start = time.thread_time()
    program = pick_program(_load(args), args.program, args.file)
    times["load"] = time.thread_time() - start
    # the functions to compile: the one --func names, else each (the first by name is shown)
    names = [args.func] if args.func is not None else orchestration_functions(program) or [None]
    first = args.func if len(names) == 1 else names[0]
    start = time.thread_time()
    surface = surface_of(program, first)  # the front end, timed on its own
    front_end = time.thread_time() - start
    chosen = passes
    passes = _for_program(chosen, program, first)
    _check_names_run(args, passes)
    printer = StagePrinter(args, passes, out)
    stop_after = None if args.stop_after == PRINTER else args.stop_after
    to_emission = stop_after is None and _ends_in_emission(passes)
    shown = _shown_function_note(program.name, names) if args.dump_all and len(names) > 1 else ""
    if shown and not args.quiet:
        err.print(f"note: {shown}", markup=False)
    with _dump_progress(args, err, passes) as report_progress:
        dumps = _dump_writer(args, program, passes, surface, report_progress, note=shown) if args.dump_all else None
        try:
            with _progress(surface, args, err, passes, report_progress is not None) as progress:
                stages = run_pipeline(
                    surface, first, options=_options(args), verify=not args.no_verify, stop_after=stop_after,
                    recheck_preserved=args.verify_all,
                    observer=fan_out([HintChecker.of(program, first), dumps, progress,
                                      printer if printer.wanted else None]),
                    keep_tree=None if (dumps or printer.wanted or not to_emission) else needed_by_result,
                    passes=passes, front_end_seconds=front_end,
                    front_end_warnings=front_end_warnings_of(program, first),
                    inline_copies=inline_copies_of(program, first),
                )
        except PipelineError as failure:
            if dumps:
                dumps.finish(failure=str(failure.error))
                args.report = dumps.report_path()  # where an internal error's one line points
            if args.time_passes:
                time_report(failure.stages, times, args, err)
            raise failure.error from None
        print_warnings(stages, args, err)
        if not to_emission:  # --stop-after, or passes that do not reach the C++: the last stage's IR
            _finish_dumps(dumps, args, err, report_progress)
            write_or_print_ir(stages[-1], args, out, err)
            if args.time_passes:
                time_report(stages, times, args, err)
            return EXIT_OK
        start = time.thread_time()
        result = result_from_stages(stages, args.abi, getattr(args, "backend", "Ascend910B"))
        times["print_cpp"] = time.thread_time() - start
        compiled = [(result, stages)]
        for name in names[1:]:
            try:
                other = run_pipeline(program, name, options=_options(args), verify=not args.no_verify,
                                     recheck_preserved=args.verify_all,
                                     keep_tree=needed_by_result, passes=_for_program(chosen, program, name))
            except PipelineError as failure:
                raise failure.error from None
            print_warnings(other, args, err)
            compiled.append((result_from_stages(other, args.abi, getattr(args, "backend", "Ascend910B")), other))
        metadata = metadata_json(program.name, args.abi, [r for r, _ in compiled])
        if dumps:
            dumps.write_code(len(stages), result.code)
            dumps.write(METADATA_FILE, metadata)
        _finish_dumps(dumps, args, err, report_progress)
    if not args.quiet:
        _print_notes([n for _, s in compiled for stage in s for n in stage.notes], args.verbose, err)
    if args.output:
        for relative, code in ((f, c) for r, _ in compiled for f, c in r.files.items()):
            _write(os.path.join(args.output, relative), code, args, err)
    else:  # the product: printed under -q too (-q silences notes and summaries)
        out.file.write(result.code)
        if len(compiled) > 1 and not args.quiet:
            others = ", ".join(r.func_name for r, _ in compiled[1:])
            err.print(f"note: program '{program.name}' has {len(compiled)} orchestration functions; printed "
                      f"{result.func_name}, the first by name (also compiled: {others}; --func NAME prints one, "
                      "-o DIR writes each)", markup=False)
    if args.metadata:
        _write(args.metadata, metadata, args, err)
    if args.time_passes:  # last, so that --json's line is stderr's last
        time_report(stages, times, args, err)
    return EXIT_OK


def _check_names_run(args, passes) -> None:
    """The passes ``--stop-after``/``--print-after``/``--print-before`` name run on this program
    (a printed program runs convert_printed_ssa in place of convert_to_ssa, a DSL one the other)."""
    from .stage_names import FRONT_END

    running = [FRONT_END] + [p.name for p in passes] + [PRINTER]
    for option, values in (("--stop-after", [args.stop_after] if args.stop_after else []),
                           ("--print-after", args.print_after), ("--print-before", args.print_before)):
        for name in values:
            if name not in running:
                raise UsageError(f"{option}: '{name}' does not run on this program",
                                 hint=f"its passes: {', '.join(running[1:-1])}")


def _shown_function_note(program: str, names: list[str]) -> str:
    """What ``--dump-all`` says (on stderr and atop the report) when it shows one of several functions."""
    return (f"--dump-all shows '{names[0]}', the first by name of the {len(names)} orchestration functions "
            f"(also: {', '.join(names[1:])}) of program '{program}'; rerun with --func NAME to dump another")


def _write(path: str, text: str, args, err: Console) -> None:
    from .dumps import write_atomic

    try:
        write_atomic(path, text)
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror}") from None
    if not args.quiet:
        err.print(f"wrote {path}", markup=False)


def _ends_in_emission(passes) -> bool:
    from nanopass.languages import EMISSION

    return bool(passes) and passes[-1].target is EMISSION


def _finish_dumps(dumps, args, err: Console, progress=None) -> None:
    if dumps is None:
        return
    dumps.finish()
    if progress is not None:
        progress.__exit__(None, None, None)  # the bars go before the report's line
    if not args.quiet:
        err.print(f"report: {dumps.report_path()}", markup=False)


def _print_notes(notes: list, verbose: bool, err: Console) -> None:
    """Every note with ``-v``; else one line per pass that sums its notes up."""
    from .notes import summarise

    if verbose:
        for note in notes:
            err.print(f"note: [{note.pass_name}] {note.message}", markup=False)
        return
    lines = summarise(notes)
    for line in lines:
        err.print(f"note: {line}", markup=False)
    if len(lines) < len(notes):
        err.print("(-v lists every note)", markup=False)


@contextlib.contextmanager
def _dump_progress(args, err: Console, passes):
    """The ``--dump-all`` progress bars on a terminal (else None)."""
    from .progress import ReportProgress

    if not args.dump_all or args.quiet or not err.is_terminal:
        yield None
        return
    with ReportProgress(err, len(passes) + 1) as progress:
        yield progress


@contextlib.contextmanager
def _progress(surface, args, err: Console, passes, dumping: bool = False):
    """A progress bar over the passes for a large program on a terminal (else None); none when
    the ``--dump-all`` bars are shown."""
    from .progress import PassProgress, wants_progress

    if dumping or args.quiet or not err.is_terminal or not wants_progress(surface, err, args.quiet):
        yield None
        return
    with PassProgress(err, [p.name for p in passes]) as progress:
        yield progress
