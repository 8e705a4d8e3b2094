"""What ``nanopass run`` prints besides the C++: stages' IR (``--stop-after``, ``--print-after``,
``--print-before``), the passes' warnings, and the times of ``--time-passes``."""

from __future__ import annotations

import os

from rich.console import Console
from rich.table import Table

from .diagnostics import render_warning
from .errors import UserError
from .stage_names import PRINTER


def write_or_print_ir(stage, args, out: Console, err: Console) -> None:
    """The IR of the stage a run stopped at: on stdout, or with ``-o DIR`` into
    ``DIR/NN_<pass>.<language>.txt`` (the name ``--dump-all`` gives it, which ``nanopass opt`` reads)."""
    from .dumps import write_atomic
    from .text import unparse

    text = unparse(stage.tree, labelled=not args.unlabelled)
    if args.output:
        path = os.path.join(args.output, f"{stage.index:02d}_{stage.name}.{stage.language.name}.txt")
        try:
            write_atomic(path, text + "\n")
        except OSError as error:
            raise UserError(f"cannot write {path}: {error.strerror}") from None
        if not args.quiet:
            err.print(f"wrote {path}", markup=False)
    else:  # the product of the run: printed under -q too
        out.file.write(text + "\n")


class StagePrinter:
    """The observer behind ``--print-after`` and ``--print-before``: a stage's IR on stdout, under a
    ``;; after PASS (language L)`` or ``;; before PASS (language L)`` line (``nanopass opt`` reads
    such a block back)."""

    def __init__(self, args, passes, out: Console):
        self.after = set(args.print_after)
        self.labelled = not args.unlabelled
        self.before = set(args.print_before)
        self.next_name = [p.name for p in passes] + [PRINTER]  # stage i is followed by next_name[i]
        self.out = out
        self.wanted = bool(self.after or self.before)

    def __call__(self, stage) -> None:
        from .text import unparse

        heads = []
        if stage.name in self.after:
            heads.append(f";; after {stage.name} (language {stage.language.name})")
        following = self.next_name[stage.index] if stage.index < len(self.next_name) else None
        if following in self.before:
            heads.append(f";; before {following} (language {stage.language.name})")
        if heads:
            self.out.file.write("\n".join(heads) + "\n" + unparse(stage.tree, labelled=self.labelled) + "\n")


def print_warnings(stages, args, err: Console) -> None:
    """The passes' warnings (located, with a help line), before anything else the run prints."""
    if args.quiet:
        return
    for stage in stages:
        for warning in stage.warnings:
            render_warning(warning.message, warning.span, warning.hint, err, warning.notes)


def time_report(stages, times: dict[str, float], args, err: Console) -> None:
    """``--time-passes``: loading, the front end (stage 0), every pass, the printer; a table, or with
    ``--json`` one line of JSON (``{"phases": [{"name", "language", "ms"}, ...], "total_ms"}``)."""
    rows = [("", "load", "", times["load"])]
    rows += [(str(s.index), s.name, s.language.name, s.seconds) for s in stages]
    if "print_cpp" in times:
        rows.append((str(len(stages)), PRINTER, "", times["print_cpp"]))
    total = sum(row[3] for row in rows)
    if args.json:
        import json

        phases = [{"index": int(i) if i else None, "name": name, "language": lang or None,
                   "ms": round(seconds * 1000, 3)} for i, name, lang, seconds in rows]
        err.file.write(json.dumps({"phases": phases, "total_ms": round(total * 1000, 3)}) + "\n")
        return
    table = Table(title="pass times")
    table.add_column("#", justify="right")
    table.add_column("phase")
    table.add_column("output language")
    table.add_column("ms", justify="right")
    for index, name, lang, seconds in rows:
        table.add_row(index, name, lang, f"{seconds * 1000:.2f}")
    table.add_row("", "total", "", f"{total * 1000:.2f}")
    err.print(table)
