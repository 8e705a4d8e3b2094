"""Check one abstract program end to end: render, compile with nanopass, build with g++ and the
recorder, run for every scalar setting, and judge each run with the oracle."""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from nanopass.passes.naming import inline_original
from . import oracle, record, semantics
from . import program as P

SETTINGS = tuple((n, c) for n in (0, 1, 2) for c in (0, 1))
# The compiler's located errors that answer each kind of program with no correct compilation
# (semantics.Reason.kind), matched against the error's first line: for an assemble's placement,
# a refusal of the assemble ("pl.assemble cannot make 't' a view ...", "'t' is used after it was
# assembled into 'b'", "pl.assemble needs a source made by pl.create_tensor ..."). A refusal for
# any other reason (a race, a TaskId, a loop's allocation) is a failure even then. Each of these
# messages is located at the assemble it refuses, so a refusal is matched by name too
# (Report.refusal_check).
RIGHT_REFUSALS = {semantics.PLACEMENT: re.compile(r"\bpl\.assemble\b|\bassembled into\b")}
# The heads of those messages that quote the assemble's source and target (passes/
# fuse_create_assemble_to_slice.py): only these quotes are names. What follows a head is prose,
# which may quote other tensors (a choice of creates, a task's rows) and hold apostrophes ("the
# target's rank", "the source's writer") that open no quote.
NAMING_HEADS = tuple(re.compile(head) for head in (
    r"pl\.assemble cannot make '(?P<source>[^']+)' a view of '(?P<target>[^']+)'",
    r"'(?P<source>[^']+)' is used after it was assembled into '(?P<target>[^']+)'",
    r"pl\.assemble needs a source made by pl\.create_tensor[^;']*; '(?P<source>[^']+)' (?:is not|may be)\b",
    r"the target '(?P<target>[^']+)' of pl\.assemble must exist before its source '(?P<source>[^']+)' is created",
))


def named_tensors(message: str) -> set[str]:
    """The tensor names a refusal's message (its first line, after the location) quotes in its
    naming head (NAMING_HEADS), or none; an inline function's variable is quoted as its copy's
    (`t_inline0`), and given as the tester's (`t`)."""
    for head in NAMING_HEADS:
        found = head.match(message)
        if found:
            return {inline_original(name) or name for name in found.groupdict().values()}
    return set()
SURFACE_SETTINGS = tuple((n, c) for n in (0, 1, 2, 3) for c in (0, 1))   # trip counts 0-3


@dataclass
class Report:
    source: str
    failures: list = field(default_factory=list)    # (setting or None, Failure)
    refusal: Optional[str] = None                    # a located user error on a valid program
    runs: int = 0
    tasks: int = 0
    invalid: Optional[str] = None                    # the tester's own semantics could not run it
    unorderable: list = field(default_factory=list)  # why no compilation is correct (semantics.py)
    unorderable_kinds: set = field(default_factory=set)   # their kinds (semantics.Reason.kind)
    reasons: list = field(default_factory=list)     # `unorderable` as semantics.Reason (lines, names)
    checked: int = 0                                 # runs `nanopass check` compared values of (values_noting)

    def refusal_check(self) -> Optional[str]:
        """How the refusal was found right, or None (no refusal, or a wrong one). "name": the
        program has no correct compilation for a reason the error names by its kind
        (RIGHT_REFUSALS), located at one of the reason's assembles (its line) and naming in its
        head (named_tensors) only tensors those assemble (Reason.names), at least one. "kind": a
        reason of that kind the error cannot be tied to (the error has no location or names no
        tensor, or the tester knows no line or name of the reason), so only the kind is matched."""
        if self.refusal is None:
            return None
        first = self.refusal.splitlines()[0]
        located = re.match(r"^\S+:(\d+):\d+: error: ", first)
        message = first[located.end():] if located else first
        quoted = named_tensors(message)
        of_kind = [why for why in self.reasons if RIGHT_REFUSALS[why.kind].search(message)]
        if not located or not quoted:
            return "kind" if of_kind else None
        line = int(located.group(1))
        if any(line in why.lines and quoted <= why.names for why in of_kind):
            return "name"
        return "kind" if any(not why.lines or not why.names for why in of_kind) else None

    def right_refusal(self) -> bool:
        """Is the refusal right: the program has no correct compilation, and the error names the
        reason the tester found (refusal_check)?"""
        return self.refusal_check() is not None

    def classes(self) -> set:
        """The failure classes; refusing a program that has no correct compilation, for that
        reason, is right."""
        out = {f.cls for _, f in self.failures}
        if self.refusal is not None and not self.right_refusal():
            out.add("refusal")
        return out


def semantics_noting(rep: Report, prog: P.Program, lines, settings) -> Optional[dict]:
    """The tester's semantics of `prog` (rendered at `lines`) under each setting (n, c), what it
    cannot order noted on `rep`; None, with `rep.invalid` set, when the semantics fails."""
    seqs = {}
    for n, c in settings:
        try:
            seqs[(n, c)] = seq = semantics.run(prog, lines, n, c)
        except (KeyError, AttributeError, TypeError, IndexError, ValueError) as e:
            rep.invalid = f"the tester's semantics failed at n={n} c={c}: {type(e).__name__}: {e}"
            return None
        rep.unorderable += [f"n={n} c={c}: {why}" for why in seq.unorderable]
        rep.unorderable_kinds |= {why.kind for why in seq.unorderable}
        rep.reasons += seq.unorderable
    return seqs


def runs_noting(rep: Report, prog: P.Program, binary: Path, seqs: dict, kernel_ids: dict, host_region: str,
                surface: bool, expected=None, observe=None) -> None:
    """Run `binary` under each setting of `seqs` and note on `rep` the runs, the tasks and each
    way the recorded run differs from the setting's semantics (`expected`: a function applied
    to each sequence before the check, the tests' perturbed oracle; `observe(seq, log,
    kernel_ids)`: called with each completed run's log, for figures of the same runs)."""
    for setting, seq in seqs.items():
        log, err = record.run(binary, P.entry_arguments(*setting, surface=surface, extra=prog.extra,
                                                          extra_shapes=prog.extra_shapes))
        rep.runs += 1
        rep.tasks += sum(1 for e in seq.events if e.kind == "task")
        if err:
            rep.failures.append((setting, oracle.Failure("recorder", err)))
            continue
        if observe is not None:
            observe(seq, log, kernel_ids)
        for f in oracle.check_run(seq if expected is None else expected(seq), log, kernel_ids, host_region):
            rep.failures.append((setting, f))


CHECK_VALUES = "value mismatch (check)"   # the failure class of values_noting (and guards.model_failures)


def values_noting(rep: Report, stages: list, settings) -> None:
    """`nanopass check`'s value comparison (tools/check.value_mismatches: the emitted program
    interpreted against the program as written, reads and the final contents of every Out /
    InOut parameter) under each setting, noted on `rep`: each mismatch a failure CHECK_VALUES, a
    failure of the checker itself "check crash". A setting is (n, c), the program's scalar
    parameters in order, or ((name, value), ...) (scalars.py's)."""
    from nanopass.passes.naming import base_name
    from nanopass.tools.check import program_inputs, value_mismatches, value_types

    settings = list(settings)
    try:
        surface = stages[0].tree
        scalars = [p.name for p in surface.orch.params if p.type._production == "ScalarType"]
        known = set(value_types(surface))
        by_base = {base_name(name): name for name in sorted(known)}  # a printed program's g__ssa_v0 for g
        runs = []
        for setting in settings:
            named = dict(setting) if setting and isinstance(setting[0], tuple) else dict(zip(scalars, setting))
            runs.append(program_inputs(surface, {name if name in known else by_base.get(name, name): str(value)
                                                 for name, value in named.items()}))
        for setting, found in zip(settings, value_mismatches(stages, runs)):
            rep.failures += [(setting, oracle.Failure(CHECK_VALUES, str(m))) for m in found]
        rep.checked += len(runs)
    except Exception as e:  # noqa: BLE001 - a failure of the checker on a compiled program is reported
        rep.failures.append((None, oracle.Failure("check crash", f"{type(e).__name__}: {e}")))


def compile_noting(rep: Report, src: Path) -> Optional[record.Compiled]:
    """Compile `src` with nanopass; None when no C++ came out, with the refusal (a user error, its
    path spelled prog.py) or the compiler's failure noted on `rep`."""
    comp = record.compile_dsl(src)
    if comp.code is not None:
        return comp
    if comp.error_kind == "user":
        rep.refusal = comp.error.replace(str(src), "prog.py")
    else:
        rep.failures.append((None, oracle.Failure(f"compiler {comp.error_kind}", comp.error)))
    return None


def build_noting(rep: Report, code: str, wd: Path) -> Optional[record.Built]:
    """Build `code` with the recorder in `wd`; None, with g++'s rejection noted on `rep`, when it fails."""
    built = record.build(code, wd)
    if built.binary is not None:
        return built
    rep.failures.append((None, oracle.Failure("g++ rejects", built.gxx_error)))
    return None


def recorded(prog: P.Program) -> tuple:
    """(``check``'s report, [(seq, log, kernel ids)] of each of its recorded runs)."""
    runs = []
    report = check(prog, observe=lambda seq, log, ids: runs.append((seq, log, ids)))
    return report, runs


def check(prog: P.Program, settings=None, host_region: str = "element",
          workdir: Optional[Path] = None, observe=None, values: bool = True) -> Report:
    """Render, compile, build and run `prog` under each setting, judged by the oracle; with
    `values`, `nanopass check`'s value comparison too (values_noting) on the compile."""
    if settings is None:
        settings = prog.settings or (SURFACE_SETTINGS if prog.surface else SETTINGS)
    rendered = P.render(prog)
    rep = Report(rendered.source)
    seqs = semantics_noting(rep, prog, rendered.lines, settings)
    if seqs is None:
        return rep
    own = workdir is None
    wd = Path(tempfile.mkdtemp(prefix="attack-")) if own else workdir
    try:
        src = wd / "prog.py"
        src.write_text(rendered.source)
        comp = compile_noting(rep, src)
        if comp is None:
            return rep
        for text in comp.warnings:
            if "free" in text.lower():
                rep.failures.append((None, oracle.Failure("warning buffer freed", f"line {text}")))
        for name, code in sorted(comp.others.items()):
            err = record.syntax_error(code, wd, name)
            if err:
                rep.failures.append((None, oracle.Failure("g++ rejects", f"function {name}: {err}")))
        if prog.surface:
            _check_other_spellings(rep, src, comp, wd)
        built = build_noting(rep, comp.code, wd)
        if built is None:
            return rep
        runs_noting(rep, prog, built.binary, seqs, comp.kernel_ids, host_region, prog.surface, observe=observe)
        if values and comp.stages:
            values_noting(rep, comp.stages, seqs)
        return rep
    finally:
        if own:
            shutil.rmtree(wd, ignore_errors=True)


def _check_other_spellings(rep: Report, src: Path, comp, wd: Path) -> None:
    """The same program under `--abi l2 --backend Ascend950` must compile too, and both outputs
    pass g++ -fsyntax-only (the l2 one) and -Wall -Werror (both; the project's own standard)."""
    l2 = record.compile_dsl(src, abi="l2", backend="Ascend950")
    if l2.code is None:
        kind = "refusal" if l2.error_kind == "user" else l2.error_kind
        rep.failures.append((None, oracle.Failure(f"compiler {kind} (l2 only)", l2.error)))
        return
    err = record.syntax_error(l2.code, wd, "orch_l2")
    if err:
        rep.failures.append((None, oracle.Failure("g++ rejects (l2)", err)))
    for name, code in (("seed", comp.code), ("l2", l2.code)):
        err = record.syntax_error(code, wd, f"orch_wall_{name}", warnings=True)
        if err:
            rep.failures.append((None, oracle.Failure(f"g++ -Wall -Werror ({name})", err)))


def describe(rep: Report) -> str:
    lines = []
    if rep.refusal:
        lines.append(f"refused: {rep.refusal}")
    for why in rep.unorderable[:3]:
        lines.append(f"no correct compilation: {why}")
    if rep.invalid:
        lines.append(f"invalid: {rep.invalid}")
    seen = set()
    for setting, f in rep.failures:
        key = (f.cls, f.detail)
        if key in seen:
            continue
        seen.add(key)
        where = f"n={setting[0]} c={setting[1]}: " if setting else ""
        lines.append(f"{where}{f}")
    return "\n".join(lines)
