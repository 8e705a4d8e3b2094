"""The ``nanopass`` command.

Exit codes: 0 success, 1 an error in the program being compiled (or its file), 2 a usage error
(bad flags), 3 an internal compiler error.

The compiler runs within Python's default recursion limit (the front end bounds how deep a
program nests); a higher limit would let CPython's own parser overflow the C stack on a deeply
nested file instead of raising RecursionError.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

from rich.console import Console
from rich.table import Table

from .diagnostics import render_internal_error, render_user_error
from .errors import InternalError, UserError
from .progress import fan_out

EXIT_OK, EXIT_USER, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_BROKEN_PIPE = 141  # as a process killed by SIGPIPE: the reader of stdout closed it

EPILOG = """exit codes:
  0  success
  1  an error in the program being compiled (reported as FILE:LINE:COL: error: ...)
  2  a usage error (unknown flag, missing argument, unknown pass name)
  3  an internal compiler error (a bug: rerun with --dump-all DIR and report it)

colours are used only on a terminal; NO_COLOR=1 turns them off there too.
an interrupt (Ctrl-C) exits 130; stdout closed by its reader (| head) exits 141, silently.
"""


NO_EXEC_HELP = (
    "read FILE without running it: parse it with ast, evaluate module-level constants from literals "
    "(any other Python name a program uses is an error naming it)"
)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors: one line, exit 2
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="nanopass",
        description="Compile PTO orchestration programs (Python DSL) to PTO2 runtime C++.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = sub.add_parser("run", help="compile a program and print (or write) its C++", epilog=EPILOG,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("file", help="a Python file holding a @pl.program class")
    run.add_argument("-o", "--output", metavar="DIR", help="write DIR/orchestration/<func>.cpp instead of printing")
    run.add_argument("--program", metavar="NAME", help="the program class to compile, when the file holds several")
    run.add_argument("--func", metavar="NAME", help="the orchestration function, when the program has several")
    run.add_argument("--dump-all", metavar="DIR",
                     help="write every stage's IR text and task graph into DIR, and the report DIR/index.html")
    _set_flag(run, "with --dump-all: a scalar parameter's or dynamic dimension's value for the instance graphs "
                   "and hazards (repeat for each)")
    run.add_argument("--abi", choices=["seed", "l2"], default="seed", help="runtime ABI spelling (D1; default seed)")
    run.add_argument("--stop-after", metavar="PASS", help="stop after the named pass (print its IR)")
    run.add_argument("--time-passes", action="store_true", help="print a table of per-pass times")
    run.add_argument("--no-verify", action="store_true", help="skip the grammar/invariant checks between passes")
    _option_flags(run)
    run.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")
    run.add_argument("--no-exec", action="store_true", help=NO_EXEC_HELP)

    sub.add_parser("passes", help="list the pipeline: each pass, its languages and its contract")

    check = sub.add_parser("check", help="run a program three ways and check its task dependencies", epilog=EPILOG,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("file", help="a Python file holding a @pl.program class")
    _set_flag(check, "a scalar parameter's or dynamic dimension's value (repeat for each)")
    check.add_argument("--program", metavar="NAME", help="the program class, when the file holds several")
    check.add_argument("--func", metavar="NAME", help="the orchestration function, when the program has several")
    check.add_argument("--gxx", action="store_true", help="also compile the C++ with g++ and run it on the recording runtime")
    check.add_argument("--dump-all", metavar="DIR", help="write every stage and a per-stage hazard report (hazards.txt)")
    check.add_argument("--trace", metavar="FILE", help="write the emission trace as JSON to FILE")
    check.add_argument("-v", "--verbose", action="store_true", help="list waived pairs one by one")
    _option_flags(check)

    explain = sub.add_parser("explain", help="show one pass's input and output for a program, side by side",
                             epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    explain.add_argument("pass_name", metavar="PASS", help="a pass of the pipeline (see 'nanopass passes')")
    explain.add_argument("file", help="a Python file holding a @pl.program class")
    explain.add_argument("--program", metavar="NAME", help="the program class, when the file holds several")
    explain.add_argument("--func", metavar="NAME", help="the orchestration function, when the program has several")
    explain.add_argument("--context", metavar="N", type=int,
                         help="fold unchanged runs, keeping N lines around each change")
    explain.add_argument("--width", metavar="COLS", type=int, help="output width (default: the terminal's, or 160)")
    explain.add_argument("--no-exec", action="store_true", help=NO_EXEC_HELP)

    language = sub.add_parser("language", help="print a language's grammar")
    language.add_argument("name", help="a language name (see 'nanopass passes')")
    language.add_argument("--diff", metavar="OTHER", help="print what OTHER adds and removes instead")
    return parser


def _name_value(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"--set takes NAME=VALUE, got '{text}'")
    return name, value


def _set_flag(parser, help_text: str) -> None:
    parser.add_argument("--set", metavar="NAME=VALUE", action="append", default=[], dest="values",
                        type=_name_value, help=help_text)


def _dump_writer(args, program):
    """``DumpWriter`` for ``--dump-all``, with the interpreter's instance graphs and hazards."""
    from nanopass.tools.check import missing_values, program_inputs
    from nanopass.tools.instances import StageRuns

    from .api import surface_of
    from .dumps import DumpWriter

    surface = surface_of(program, args.func)
    values = dict(args.values)
    missing = missing_values(surface, values)
    if missing:
        names = ", ".join(f"--set {name}=..." for name in missing)
        runs = StageRuns(None, f"the interpreter needs a value for each scalar parameter and dynamic dimension ({names})")
    else:
        runs = StageRuns(program_inputs(surface, values))
    planned = _dump_names() + (["hazards.txt"] if args.command == "check" else [])
    return DumpWriter(args.dump_all, source=args.file, planned=planned, hazards_of=runs.hazards_of,
                      instances_of=runs.instances_of)


def _option_flags(parser) -> None:
    """The compiler options ``run`` and ``check`` share."""
    parser.add_argument("--analyze-auto-scopes-for-deps", action="store_true",
                        help="derive task dependencies in AUTO scopes (off by default)")
    parser.add_argument("--no-war-ordering", action="store_true",
                        help="do not add dependencies for write-after-read pairs the runtime leaves unordered")


def _options(args) -> dict:
    return {
        "analyze_auto_scopes_for_deps": args.analyze_auto_scopes_for_deps,
        "order_war": not args.no_war_ordering,
    }


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _check_pass_names(parser, args)
    out = Console(file=sys.stdout, highlight=False, soft_wrap=True)
    err = Console(file=sys.stderr, highlight=False, soft_wrap=True)
    try:
        if args.command == "run":
            return cmd_run(args, out, err)
        if args.command == "passes":
            return cmd_passes(out)
        if args.command == "language":
            return cmd_language(args, out, err)
        if args.command == "check":
            return cmd_check(args, out, err)
        if args.command == "explain":
            return cmd_explain(args, out)
    except UserError as error:
        render_user_error(error, err)
        return EXIT_USER
    except InternalError as error:
        render_internal_error(error, err, getattr(args, "report", None))
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        err.print("interrupted")
        return 130
    except BrokenPipeError:
        _silence_stdout()  # the reader of stdout went away (| head): not an error of ours
        return EXIT_BROKEN_PIPE
    except Exception as error:  # noqa: BLE001 - any other escape is a compiler bug: one line, exit 3
        render_internal_error(InternalError(f"{type(error).__name__}: {error}"), err, getattr(args, "report", None))
        return EXIT_INTERNAL
    return EXIT_USAGE


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that flushing it at exit does not raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _check_pass_names(parser: argparse.ArgumentParser, args) -> None:
    """A pass name that is not in the pipeline is a usage error (exit 2), found before any work."""
    from nanopass.passes.pipeline import PASSES

    names = [p.name for p in PASSES]
    for option, value in (("--stop-after", getattr(args, "stop_after", None)), ("PASS", getattr(args, "pass_name", None))):
        if value is not None and value not in names:
            parser.error(f"{option}: no pass named '{value}' (see 'nanopass passes')")


def cmd_run(args, out: Console, err: Console) -> int:
    from .api import collector_paused

    with collector_paused():  # once for the whole compile: loading, front end, passes, printer
        return _compile_and_write(args, out, err)


def _compile_and_write(args, out: Console, err: Console) -> int:
    from .api import result_from_stages
    from .dumps import write_atomic
    from .loader import pick_program
    from .pipeline import PipelineError
    from .text import unparse

    if args.values and not args.dump_all:
        err.print("nanopass run: error: --set is used with --dump-all (the instance graphs and hazards)", markup=False)
        return EXIT_USAGE
    program = pick_program(_load(args), args.program, args.file)
    dumps = _dump_writer(args, program) if args.dump_all else None
    options = _options(args)
    from .api import needed_by_result, run_pipeline

    try:
        with _progress(program, args, err) as progress:
            stages = run_pipeline(
                program, args.func, options=options, verify=not args.no_verify, stop_after=args.stop_after,
                observer=fan_out([dumps, progress]), keep_tree=None if dumps else needed_by_result,
            )
    except PipelineError as failure:
        if dumps:
            dumps.finish(failure=str(failure.error))
            args.report = dumps.report_path()  # where an internal error's one line points
        if args.time_passes:
            _time_table(failure.stages, err)
        raise failure.error from None
    if args.time_passes:
        _time_table(stages, err)
    if args.stop_after:
        _finish_dumps(dumps, args, err)
        if not args.quiet:
            out.print(unparse(stages[-1].tree), markup=False)
        return EXIT_OK
    result = result_from_stages(stages, args.abi)
    if dumps:
        dumps.write_code(len(stages), result.code)
    _finish_dumps(dumps, args, err)
    for note in (n for s in stages for n in s.notes):
        if not args.quiet:
            err.print(f"note: [{note.pass_name}] {note.message}", markup=False)
    if args.output:
        for relative, code in result.files.items():
            path = os.path.join(args.output, relative)
            try:
                write_atomic(path, code)
            except OSError as error:
                raise UserError(f"cannot write {path}: {error.strerror}") from None
            if not args.quiet:
                err.print(f"wrote {path}", markup=False)
    elif not args.quiet:
        sys.stdout.write(result.code)
    return EXIT_OK


def _load(args) -> list:
    """The programs in ``args.file``: imported, or read with ``ast`` only under ``--no-exec``."""
    if args.no_exec:
        from .static_loader import load_programs_static

        return load_programs_static(args.file)
    from .loader import load_programs

    return load_programs(args.file)


def _dump_names() -> list[str]:
    """Every file name a ``--dump-all`` run may write (checked before anything is written)."""
    from nanopass.passes.pipeline import PASSES

    names = ["00_parse_dsl.surface.txt", "00_parse_dsl.dot", "00_parse_dsl.instances.dot"]
    for index, cls in enumerate(PASSES, start=1):
        names += [f"{index:02d}_{cls.name}.{cls.target.name}.txt", f"{index:02d}_{cls.name}.dot",
                  f"{index:02d}_{cls.name}.instances.dot"]
    return names + [f"{len(PASSES) + 1:02d}_print_cpp.cpp"]


def _finish_dumps(dumps, args, err: Console) -> None:
    if dumps is None:
        return
    dumps.finish()
    if not args.quiet:
        err.print(f"report: {dumps.report_path()}", markup=False)


@contextlib.contextmanager
def _progress(program, args, err: Console):
    """A progress bar over the passes for a large program on a terminal (else None)."""
    from nanopass.passes.pipeline import PASSES

    from .api import surface_of
    from .progress import PassProgress, wants_progress

    tree = None
    if not args.quiet and err.is_terminal:
        try:
            tree = surface_of(program, args.func)
        except (UserError, InternalError):
            tree = None  # the pipeline run reports it
    if tree is None or not wants_progress(tree, err, args.quiet):
        yield None
        return
    with PassProgress(err, [p.name for p in PASSES]) as progress:
        yield progress


def _time_table(stages, console: Console) -> None:
    table = Table(title="pass times")
    table.add_column("#", justify="right")
    table.add_column("pass")
    table.add_column("output language")
    table.add_column("ms", justify="right")
    for stage in stages[1:]:
        table.add_row(str(stage.index), stage.name, stage.language.name, f"{stage.seconds * 1000:.2f}")
    table.add_row("", "total", "", f"{sum(s.seconds for s in stages) * 1000:.2f}")
    console.print(table)


def cmd_passes(out: Console) -> int:
    from nanopass.passes.pipeline import PASSES

    for index, pass_cls in enumerate(PASSES, start=1):
        out.print(f"{index:2d}. {pass_cls.name}: {pass_cls.source.name} -> {pass_cls.target.name}", markup=False)
        out.print(f"    {pass_cls.contract()}", markup=False)
    return EXIT_OK


def cmd_explain(args, out: Console) -> int:
    from .api import run_pipeline
    from .explain import print_explanation
    from .loader import pick_program
    from .pipeline import PipelineError

    program = pick_program(_load(args), args.program, args.file)
    try:
        stages = run_pipeline(program, args.func, stop_after=args.pass_name)
    except PipelineError as failure:
        raise failure.error from None
    console = out
    if args.width or not out.is_terminal:
        console = Console(file=out.file, highlight=False, width=args.width or 160)
    print_explanation(stages[-2], stages[-1], console, context=args.context)
    return EXIT_OK


def cmd_language(args, out: Console, err: Console) -> int:
    from nanopass.languages import BY_NAME

    def get(name: str):
        if name not in BY_NAME:
            raise UserError(f"no language '{name}' (languages: {', '.join(BY_NAME)})")
        return BY_NAME[name]

    language = get(args.name)
    text = language.diff(get(args.diff)) if args.diff else language.grammar_text()
    out.print(text, markup=False, end="")
    return EXIT_OK


def cmd_check(args, out: Console, err: Console) -> int:
    """Exit 0 when every read/write conflict is ordered by the runtime and every read observes the
    write it observes in the program as written; 1 on a hazard, a value mismatch or when the
    runtime would stop the program (a fatal error)."""
    from .api import result_from_stages, run_pipeline, surface_of
    from .dumps import write_atomic
    from .loader import load_programs, pick_program
    from .pipeline import PipelineError
    from nanopass.tools.check import check_stages, program_inputs, stage_report

    program = pick_program(load_programs(args.file), args.program, args.file)
    inputs = program_inputs(surface_of(program, args.func), dict(args.values))
    dumps = _dump_writer(args, program) if args.dump_all else None
    try:
        stages = run_pipeline(program, args.func, options=_options(args), observer=dumps)
    except PipelineError as failure:
        if dumps:
            dumps.finish()
        raise failure.error from None
    if dumps:
        dumps.write_code(len(stages), result_from_stages(stages).code)
        dumps.write("hazards.txt", stage_report(stages, inputs))
        dumps.finish()
    result = check_stages(stages, inputs, gxx=args.gxx, options=_options(args))
    if args.trace:
        try:
            write_atomic(args.trace, result.emission.to_json() + "\n")
        except OSError as error:
            raise UserError(f"cannot write {args.trace}: {error.strerror}") from None
    ways = "reference, emission and compiled C++" if args.gxx else "reference and emission"
    out.print(f"{stages[-1].tree.func}: {len(result.reference.tasks())} tasks; the {ways} traces agree", markup=False)
    waived = [line for line in result.lines() if line.startswith("waived: ")]
    for line in result.lines():
        if args.verbose or not line.startswith("waived: "):
            out.print(line, markup=False)
    if waived and not args.verbose:
        out.print(f"{len(waived)} unordered pair(s) waived as declared independent (-v lists them)", markup=False)
    count = len(result.failing)
    out.print(f"{count} hazard{'s' if count != 1 else ''}", markup=False)
    if result.mismatches:
        many = len(result.mismatches)
        out.print(f"{many} value mismatch{'es' if many != 1 else ''} with the program as written", markup=False)
    return EXIT_USER if count or result.fatal or result.mismatches else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
