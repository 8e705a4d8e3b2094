"""The ``nanopass`` command.

Exit codes: 0 success, 1 an error in the program being compiled (or its file), 2 a usage error
(bad flags), 3 an internal compiler error.

The compiler runs within Python's default recursion limit (the front end bounds how deep a
program nests); a higher limit would let CPython's own parser overflow the C stack on a deeply
nested file instead of raising RecursionError.
"""

from __future__ import annotations

import argparse
import os
import sys

from rich.console import Console

from .diagnostics import make_console, render_internal_error, render_user_error
from .errors import InternalError, UsageError, UserError
from .stage_names import FRONT_END, PRINTER

EXIT_OK, EXIT_USER, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_BROKEN_PIPE = 141  # as a process killed by SIGPIPE: the reader of stdout closed it

EPILOG = """exit codes:
  0  success
  1  an error in the program being compiled (reported as FILE:LINE:COL: error: ...)
  2  a usage error (unknown flag, missing argument, a name that names nothing: pass, language,
     program, function, parameter)
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
    from . import __version__

    parser = _Parser(
        prog="nanopass",
        description="Compile PTO orchestration programs (Python DSL) to PTO2 runtime C++.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"nanopass {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = sub.add_parser("run", help="compile a program and print (or write) its C++", epilog=EPILOG,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("file", help="a Python file holding a @pl.program class")
    run.add_argument("-o", "--output", metavar="DIR",
                     help="write DIR/orchestration/<func>.cpp (for each orchestration function) instead of printing")
    run.add_argument("--program", metavar="NAME", help="the program class to compile, when the file holds several")
    run.add_argument("--func", metavar="NAME",
                     help="compile only this orchestration function (default: each; stdout gets the first by name)")
    run.add_argument("--dump-all", metavar="DIR",
                     help="write every stage's IR text and task graph into DIR, and the report DIR/index.html")
    _set_flag(run, "with --dump-all: a scalar parameter's or dynamic dimension's value for the instance graphs "
                   "and hazards (repeat for each)")
    run.add_argument("--abi", choices=["seed", "l2"], default="seed",
                     help="runtime ABI: seed (default) or l2, spelled as the existing compiler's release for it (D17)")
    run.add_argument("--backend", choices=["Ascend910B", "Ascend950"], default="Ascend910B",
                     help="the chip: Ascend950 spells an SPMD task's block count launch_spec.set_core_num(N) "
                          "(default Ascend910B: set_block_num(N))")
    run.add_argument("--metadata", metavar="FILE",
                     help="also write FILE: JSON with each orchestration function's kernel ids, core types, "
                          "signatures, orchestration signature and expected_arg_count")
    run.add_argument("--stop-after", metavar="PASS",
                     help="stop after the named stage (a pass, parse_dsl or print_cpp) and print its IR "
                          "(with -o: write DIR/NN_<pass>.<language>.txt)")
    run.add_argument("--print-after", metavar="PASS", action="append", default=[],
                     help="also print the IR after PASS (or parse_dsl) on stdout (repeatable)")
    run.add_argument("--print-before", metavar="PASS", action="append", default=[],
                     help="also print the IR before PASS (or print_cpp) on stdout (repeatable)")
    run.add_argument("--passes", metavar="P1,P2,...", action="append",
                     help="run these passes, in this order, instead of the pipeline (their languages must connect)")
    run.add_argument("--skip", metavar="PASS", action="append", default=[],
                     help="run the pipeline without PASS (repeatable; the languages must still connect)")
    run.add_argument("--time-passes", action="store_true",
                     help="print the CPU time of loading, the front end, every pass and the printer (on stderr)")
    run.add_argument("--json", action="store_true", help="with --time-passes: one line of JSON instead of a table")
    checks = run.add_mutually_exclusive_group()
    checks.add_argument("--no-verify", action="store_true", help="skip the grammar/invariant checks between passes")
    checks.add_argument("--verify-all", action="store_true",
                        help="check every invariant on every pass's output, also those the pass declares it "
                        "preserves (a test of the declarations; slower)")
    _option_flags(run)
    run.add_argument("-q", "--quiet", action="store_true", help="no notes, warnings or summaries on success (the C++ or IR still goes to stdout without -o)")
    run.add_argument("-v", "--verbose", action="store_true",
                     help="print every note the passes leave (by default one line per pass sums them up)")
    run.add_argument("--unlabelled", action="store_true",
                     help="with --dump-all: write the IR text with positional fields (default: labelled, name: value)")
    run.add_argument("--no-exec", action="store_true", help=NO_EXEC_HELP)
    _input_flag(run)

    sub.add_parser("passes", help="list the pipeline: each pass, its languages and its contract")

    from .opt import add_opt_parser

    add_opt_parser(sub, EPILOG, _option_flags)

    check = sub.add_parser("check", help="run a program three ways and check its task dependencies", epilog=EPILOG,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("file", help="a Python file holding a @pl.program class")
    _set_flag(check, "a scalar parameter's or dynamic dimension's value (repeat for each); without it, "
                     "values chosen from the program are checked")
    check.add_argument("--program", metavar="NAME", help="the program class, when the file holds several")
    check.add_argument("--func", metavar="NAME",
                         help="the orchestration function, when the program has several (default: the first by name)")
    check.add_argument("--gxx", action="store_true", help="also compile the C++ with g++ and run it on the recording runtime")
    check.add_argument("--dump-all", metavar="DIR", help="write every stage and a per-stage hazard report (hazards.txt)")
    check.add_argument("--trace", metavar="FILE", help="write the emission trace as JSON to FILE")
    check.add_argument("-v", "--verbose", action="store_true", help="list waived pairs one by one")
    check.add_argument("--json", action="store_true", help="print the result as one JSON object on stdout")
    _option_flags(check)
    _input_flag(check)

    explain = sub.add_parser("explain", help="show one pass's input and output for a program, side by side",
                             epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    explain.add_argument("pass_name", metavar="PASS", help="a pass of the pipeline (see 'nanopass passes')")
    explain.add_argument("file", help="a Python file holding a @pl.program class")
    explain.add_argument("--program", metavar="NAME", help="the program class, when the file holds several")
    explain.add_argument("--func", metavar="NAME",
                         help="the orchestration function, when the program has several (default: the first by name)")
    explain.add_argument("--context", metavar="N", type=int,
                         help="fold unchanged runs, keeping N lines around each change")
    explain.add_argument("--width", metavar="COLS", type=int, help="output width (default: the terminal's, or 160)")
    explain.add_argument("--unlabelled", action="store_true",
                         help="show the IR text with positional fields (default: labelled, name: value)")
    explain.add_argument("--no-exec", action="store_true", help=NO_EXEC_HELP)
    _input_flag(explain)

    language = sub.add_parser("language", help="print a language's grammar")
    language.add_argument("name", help="a language name (see 'nanopass passes')")
    language.add_argument("--diff", metavar="OTHER", help="print what OTHER adds and removes instead")
    parser.commands = dict(sub.choices)  # each command's parser, for the usage line of a later usage error
    return parser


def _name_value(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"--set takes NAME=VALUE, got '{text}'")
    return name, value


def _set_flag(parser, help_text: str) -> None:
    parser.add_argument("--set", metavar="NAME=VALUE", action="append", default=[], dest="values",
                        type=_name_value, help=help_text)


def _dump_writer(args, program, passes, surface=None, progress=None, note="", interpreted=None):
    """``DumpWriter`` for ``--dump-all``, with the interpreter's instance graphs and hazards: the
    runs of ``interpreted`` (``tools.check.InterpretedStages``, shared with the caller) when given,
    else of the ``--set`` values."""
    from nanopass.tools.check import check_values, missing_values, program_inputs
    from nanopass.tools.instances import StageRuns

    from .api import surface_of
    from .dumps import DumpWriter

    surface = surface if surface is not None else surface_of(program, args.func)
    values = dict(args.values)
    check_values(surface, values)  # a wrong name or value is refused even when others are missing
    missing = missing_values(surface, values)
    if interpreted is not None:
        runs = StageRuns(interpreted.inputs, interpreted=interpreted)
    elif missing:
        names = ", ".join(f"--set {name}=..." for name in missing)
        runs = StageRuns(None, f"the interpreter needs a value for each scalar parameter and dynamic dimension ({names})")
    else:
        runs = StageRuns(program_inputs(surface, values))
    planned = _dump_names(passes) + (["hazards.txt"] if args.command == "check" else [])
    return DumpWriter(args.dump_all, source=args.file, note=note, planned=planned, hazards_of=runs.hazards_of,
                      instances_of=runs.instances_of, seed=runs.seed, labelled=not getattr(args, "unlabelled", False),
                      progress=progress)


def _option_flags(parser) -> None:
    """The compiler options ``run``, ``check`` and ``opt`` share."""
    parser.add_argument("--analyze-auto-scopes-for-deps", action="store_true",
                        help="derive task dependencies in AUTO scopes (off by default)")
    parser.add_argument("--no-war-ordering", action="store_true",
                        help="do not add dependencies for write-after-read pairs the runtime leaves unordered")


def _options(args) -> dict:
    from .api import abi_options

    return {
        "analyze_auto_scopes_for_deps": args.analyze_auto_scopes_for_deps,
        "order_war": not args.no_war_ordering,
        **abi_options(getattr(args, "abi", "seed")),
    }


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    out = make_console(sys.stdout)
    err = make_console(sys.stderr)
    try:
        _check_stage_names(args)
        if args.command == "run":
            from .run_command import cmd_run

            return cmd_run(args, out, err)
        if args.command == "passes":
            return cmd_passes(out)
        if args.command == "language":
            return cmd_language(args, out, err)
        if args.command == "check":
            from .check_command import cmd_check

            return cmd_check(args, out, err)
        if args.command == "explain":
            return cmd_explain(args, out, err)
        if args.command == "opt":
            from .opt import cmd_opt

            return cmd_opt(args, out, err)
    except UsageError as error:
        _render_usage_error(parser, args, error, err)
        return EXIT_USAGE
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


def _render_usage_error(parser, args, error: UsageError, err: Console) -> None:
    """A usage error: located when it concerns a place in the program (``--func``), else argparse's
    ``usage:`` line and ``nanopass CMD: error: ...``."""
    if error.span is not None:
        render_user_error(error, err)
        return
    command = parser.commands.get(args.command, parser)
    err.file.write(command.format_usage())
    err.print(f"{command.prog}: error: {error.message}", markup=False)
    if error.hint:
        err.print(f"  help: {error.hint}", markup=False)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that flushing it at exit does not raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _check_stage_names(args) -> None:
    """Every stage or pass name on the command line names one (``UsageError`` otherwise, exit 2),
    found before any work: ``--stop-after`` takes any stage, ``--print-after`` any but the C++,
    ``--print-before`` any but the front end's, ``explain`` a pass."""
    from .stage_names import check_stage_name, known_passes, split_names, stage_names

    names = stage_names()
    stand_ins = [p.name for p in known_passes() if p.name not in names]  # they run for some programs
    if getattr(args, "stop_after", None):
        check_stage_name("--stop-after", args.stop_after, names + stand_ins)
    for name in getattr(args, "print_after", ()):
        check_stage_name("--print-after", name, names[:-1] + stand_ins)
    for name in getattr(args, "print_before", ()):
        check_stage_name("--print-before", name, names[1:] + stand_ins)
    if getattr(args, "pass_name", None) is not None:
        check_stage_name("PASS", args.pass_name, names[1:-1] + stand_ins)
    if getattr(args, "passes", None) is not None:
        args.passes = split_names(args.passes)
    if hasattr(args, "skip"):
        args.skip = split_names(args.skip)


def _chosen(args):
    """The passes ``run`` runs (``--passes``, ``--skip``), checked to connect, and the stages it
    stops after and prints."""
    from nanopass.passes.pipeline import PIPELINE

    from .stage_names import chosen_passes

    from nanopass.passes.pipeline import STAND_INS

    passes = chosen_passes(PIPELINE.source, args.passes, args.skip, input_label=f"the front end ({FRONT_END}) produces")
    names = [FRONT_END] + [p.name for p in passes] + [PRINTER]
    names += [s.name for s, replaced in STAND_INS.items() if replaced in passes]  # checked per program (run)
    for option, values in (("--stop-after", [args.stop_after] if args.stop_after else []),
                           ("--print-after", args.print_after), ("--print-before", args.print_before)):
        for name in values:
            if name not in names:
                raise UsageError(f"{option}: '{name}' is not among the passes chosen to run")
    return passes


def _input_flag(parser) -> None:
    parser.add_argument("--input", choices=("auto", "dsl", "printed-ir"), default="auto",
                        help="the file's form: the DSL, or the existing compiler's printed IR (read with ast only, "
                             "its attrs= hints checked); auto (the default) detects it")


def _load(args) -> list:
    """The programs in ``args.file``: imported, or read with ``ast`` only under ``--no-exec`` or when
    the file is the existing compiler's printed IR (``--input printed-ir``, or detected)."""
    if _input_form(args) == "printed-ir":
        from .printed_ir import load_printed_file

        return load_printed_file(args.file)
    if getattr(args, "no_exec", False):
        from .static_loader import load_programs_static

        return load_programs_static(args.file)
    from .loader import load_programs

    quiet = getattr(args, "quiet", False)
    return load_programs(args.file, (lambda message, span: None) if quiet else _print_python_warning)


def _print_python_warning(message: str, span) -> None:
    from .diagnostics import make_console, render_warning

    render_warning(message, span, None, make_console(sys.stderr))


def first_function(args, program, err: Console | None, verb: str) -> None:
    """Without ``--func``, ``args.func`` becomes the first of the program's orchestration functions
    by name, the one ``nanopass run`` prints and the existing compiler takes by default
    (reference-surface.md section 7); a note on ``err`` names the others."""
    from .api import orchestration_functions

    if args.func is not None:
        return
    names = orchestration_functions(program)
    if len(names) < 2:
        return
    args.func = names[0]
    if err is not None and not getattr(args, "quiet", False):
        err.print(f"note: program '{program.name}' has {len(names)} orchestration functions; {verb} {names[0]}, "
                  f"the first by name (also: {', '.join(names[1:])}; --func NAME chooses another)", markup=False)


def _for_program(passes, program, func):
    """The passes for ``program``: a printed program's SSA form is taken as it is, not derived again."""
    from .printed_ir import passes_for

    return passes_for(program, func, passes)


def _input_form(args) -> str:
    form = getattr(args, "input", "auto")
    if form != "auto":
        return form
    from .loader import check_readable
    from .printed_ir import looks_printed

    return "printed-ir" if looks_printed(check_readable(args.file).decode("utf-8")) else "dsl"


def _dump_names(passes) -> list[str]:
    """Every file name a ``--dump-all`` run of ``passes`` may write (checked before anything is written)."""
    from .dumps import stage_files
    from .run_command import METADATA_FILE

    names = stage_files(0, "parse_dsl", "surface")
    for index, cls in enumerate(passes, start=1):
        names += stage_files(index, cls.name, cls.target.name)
    return names + [f"{len(passes) + 1:02d}_print_cpp.cpp", METADATA_FILE]


def cmd_passes(out: Console) -> int:
    from nanopass.passes.pipeline import PASSES

    for index, pass_cls in enumerate(PASSES, start=1):
        out.print(f"{index:2d}. {pass_cls.name}: {pass_cls.source.name} -> {pass_cls.target.name}", markup=False)
        for paragraph in pass_cls.contract().split("\n\n"):
            out.print(f"    {paragraph}", markup=False)
    return EXIT_OK


def cmd_explain(args, out: Console, err: Console | None = None) -> int:
    from .api import run_pipeline
    from .explain import print_explanation
    from .loader import pick_program
    from .pipeline import PipelineError

    from .stage_names import pipeline_passes, with_stand_in

    program = pick_program(_load(args), args.program, args.file)
    first_function(args, program, err, "explained")
    passes = _for_program(with_stand_in(pipeline_passes(), args.pass_name), program, args.func)
    if args.pass_name not in [p.name for p in passes]:  # convert_to_ssa on a printed program
        raise UsageError(f"PASS: '{args.pass_name}' does not run on this program",
                         hint=f"its passes: {', '.join(p.name for p in passes)}")
    try:
        stages = run_pipeline(program, args.func, stop_after=args.pass_name, passes=passes)
    except PipelineError as failure:
        raise failure.error from None
    console = out
    if args.width or not out.is_terminal:
        console = make_console(out.file, width=args.width or 160)
    print_explanation(stages[-2], stages[-1], console, context=args.context, labelled=not args.unlabelled)
    return EXIT_OK


def language_named(name: str, option: str = ""):
    """The language called ``name`` (a ``UsageError`` naming the closest otherwise)."""
    from nanopass.languages import BY_NAME

    from .suggest import unknown_name

    if name not in BY_NAME:
        raise UsageError(unknown_name("language", name, BY_NAME, where=f"{option}: " if option else ""))
    return BY_NAME[name]


def cmd_language(args, out: Console, err: Console) -> int:
    language = language_named(args.name)
    text = language.diff(language_named(args.diff, "--diff")) if args.diff else language.grammar_text()
    out.print(text, markup=False, end="")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
