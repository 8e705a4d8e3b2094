"""``nanopass opt FILE.txt --pass NAME ...``: run passes on a program written in the text form.

The input is a stage's text as ``--dump-all`` writes it (``NN_<pass>.<language>.txt``), as
``run --stop-after PASS -o DIR`` writes it, or as ``--print-after`` prints it (a block under a
``;; after PASS (language L)`` line); ``-`` reads stdin. Its language comes from ``--language``,
else from such a ``;;`` line, else from the file name. The text is parsed (``nanopass.text``),
checked against its language, run through the passes named (in order; their languages must
connect from the input's), and the result is printed in the same text form, so a pass can be
tested from a file before and after it, as ``mlir-opt`` does. ``--pass print_cpp`` (last) prints
the C++ of an ``emission`` program instead.

Exit codes as ``run``: 1 for a file that cannot be read or parsed, or is not a valid program of
its language (located in the text); 2 for a usage error (an unknown pass or language, passes that
do not connect); 3 for an internal error of a pass.
"""

from __future__ import annotations

import os
import re
import sys

from rich.console import Console

from .errors import InternalError, UsageError, UserError

# NN_<pass>.<language>.txt, as --dump-all names a stage's text
_DUMP_NAME = re.compile(r"\d+_(?P<stage>[a-z0-9_]+)\.(?P<language>[a-z][a-z0-9-]*)\.txt\Z")
_HEADER = re.compile(r";;.*\(language (?P<language>[a-z][a-z0-9-]*)\)")


def add_opt_parser(sub, epilog: str, option_flags) -> None:
    import argparse

    opt = sub.add_parser("opt", help="run passes on a stage's IR text (a --dump-all .txt file) and print the result",
                         epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    opt.add_argument("file", help="a stage's text: NN_<pass>.<language>.txt from --dump-all, or - for stdin")
    opt.add_argument("--pass", metavar="NAME", dest="opt_passes", action="append", default=[],
                     help="a pass to run (repeatable, or P1,P2,...; in order); print_cpp last prints the C++")
    opt.add_argument("--language", metavar="LANG", help="the input's language (default: from the file name or ;; line)")
    opt.add_argument("--abi", choices=["seed", "l2"], default="seed", help="with --pass print_cpp: the ABI spelling")
    opt.add_argument("--no-verify", action="store_true", help="skip the grammar/invariant checks between passes")
    option_flags(opt)


def read_text(path: str) -> tuple[str, str | None]:
    """The text of ``path`` (``-``: stdin) with ``;;`` lines blanked (line numbers are kept), and the
    language a ``;; ... (language L)`` line names."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{path}: is a directory, not a text file") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: not a UTF-8 text file") from None
    except OSError as error:
        raise UserError(f"{path}: cannot read it: {error.strerror}") from None
    named = None
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith(";;"):
            match = _HEADER.match(line)
            if match and named is None:
                named = match.group("language")
            lines[i] = ""
    return "\n".join(lines), named


def input_language(args, named: str | None):
    """The input's language: ``--language``, the ``;;`` line's, or the dump file name's."""
    from .cli import language_named

    if args.language:
        return language_named(args.language, "--language")
    if named:
        return language_named(named, f"{args.file}: the ;; line")
    match = _DUMP_NAME.match(os.path.basename(args.file))
    if match:
        return language_named(match.group("language"), f"{args.file}: the file name")
    raise UsageError(f"{args.file}: cannot tell the text's language from its name",
                     hint="name it NN_<pass>.<language>.txt as --dump-all does, or give --language LANG")


def parse_program(language, text: str, path: str):
    """The tree the text spells, checked against its language (a malformed one is the user's error)."""
    from .text import parse

    filename = "<stdin>" if path == "-" else path
    try:
        tree = parse(language, text, filename=filename)
        language.verify(tree)
    except UserError:
        raise
    except InternalError as error:  # a node or a tree the language does not allow
        raise UserError(f"{filename}: not a valid '{language.name}' program: {error.message}") from None
    return tree


def cmd_opt(args, out: Console, err: Console) -> int:
    from .api import collector_paused
    from .cli import EXIT_OK, _options
    from .run_output import print_warnings
    from .pipeline import Pipeline, PipelineError
    from .rewrite import PassContext
    from .stage_names import PRINTER, connect, pass_class, split_names
    from .text import is_labelled, unparse

    names = split_names(args.opt_passes)
    print_cpp = bool(names) and names[-1] == PRINTER
    if print_cpp:
        names = names[:-1]
    passes = [pass_class("--pass", name) for name in names]
    text, named = read_text(args.file)
    language = input_language(args, named)
    connect(language, passes)
    if print_cpp:
        from nanopass.languages import EMISSION

        if (passes[-1].target if passes else language) is not EMISSION:
            raise UsageError("--pass print_cpp prints an emission program: run lower_to_emission before it")
    with collector_paused():
        tree = parse_program(language, text, args.file)
        try:
            stages = Pipeline(passes, source=language).run(
                tree, PassContext(options=_options(args)), input_name="input", verify=not args.no_verify,
            )
        except PipelineError as failure:
            raise failure.error from None
    args.quiet = False
    print_warnings(stages, args, err)
    for note in (n for s in stages for n in s.notes):
        err.print(f"note: [{note.pass_name}] {note.message}", markup=False)
    if print_cpp:
        from nanopass.printer.cpp import print_cpp as print_code

        out.file.write(print_code(stages[-1].tree, args.abi))
    else:
        out.file.write(unparse(stages[-1].tree, labelled=is_labelled(text)) + "\n")  # the form it read
    return EXIT_OK
