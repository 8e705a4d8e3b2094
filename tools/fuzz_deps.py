"""The dependency-edge properties on generated programs, and a fuzzing tool that runs them.

Properties (each a function of a generated program that raises ``PropertyFailure``); every
program runs for every value of its parameter ``n`` (``GenProgram.value_sets``: loops over
``n`` run 0 to 3 times, branches on ``n`` go both ways), and each run must pass
``tools/properties.py``'s checks (compiles, every stage agrees with the reference, no hazard,
no fatal error, every read observes what it observes in the program as written; every pass's
output is checked for the invariants the pass declares it preserves too, ``recheck_preserved``,
so a wrong ``Pass.preserves`` is a crash):

- ``check_auto``: an AUTO program; besides, the checker's conflicting pairs are the independent
  oracle's (element sets);
- ``check_manual``: dependencies derived from the true hazards inside each instance of a manual
  program's manual scope (``derive_deps``, over every run) leave no hazard (pairs across the
  scope's boundary, and between two instances of it, are the compiler's to order); then,
  dependency entries are removed one at a time until one was needed, and the checker must
  report exactly the pairs an independent oracle finds unordered (element sets of the views,
  explicit edges only: a manual scope has no other ordering).

The oracle here shares no code with the runtime model or the region logic of the checker. The
generator's issue-21 shapes that today's compiler gets wrong are left out unless ``--all-shapes``
(``pending``).

    python -m nanopass.tools.fuzz_deps --seconds 60 --seed 1 [--out DIR] [--gxx] [--all-shapes] [--tally]

runs both properties with hypothesis for the time budget, prints how many programs, runs and
tasks it checked, and saves each failing program, shrunk by hypothesis, as a DSL file in DIR.
With ``--tally`` it does not stop at a failure: it checks seeded random programs one after the
other, counts every failing run by kind and issue-21 class, and saves the smallest program of
each in DIR.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from nanopass.errors import InternalError, UserError

from . import pending
from .check import check_stages, reference_stage, stage_traces
from .gen_programs import Dep, GenProgram, RandomChooser, generate, options_of, programs
from .hazards import find_hazards, in_one_manual_scope, manual_scopes, task_numbers, with_parallel
from .interpret_ssa import interpret
from .properties import Failure, Findings, check_text, compile_text as compile_with, has_no_correct_compilation
from .sim_runtime import Inputs
from .trace import HostRead, HostWrite, Task, Trace


class PropertyFailure(AssertionError):
    """A property does not hold; ``program`` is the DSL text that shows it, run on ``values``."""

    def __init__(self, message: str, program: str, values: dict[str, str] | None = None):
        super().__init__(message)
        self.program = program
        self.values = values or {}

    def source(self) -> str:
        """The failing program as a DSL file: the failure, its inputs (``# check:``), the program."""
        comment = "".join(f"# {line}\n" for line in str(self).splitlines())
        inputs = " ".join(f"{k}={v}" for k, v in sorted(self.values.items()))
        return comment + (f"# check: {inputs}\n" if inputs else "") + self.program


@dataclass
class Stats:
    findings: Findings = field(default_factory=Findings)
    edges_removed: int = 0  # needed dependency entries removed (each must be reported)
    hazards_reported: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def programs(self) -> int:
        return self.findings.programs

    @property
    def tasks(self) -> int:
        return self.findings.tasks


# -- compiling generated text ------------------------------------------------------------------------------


def compile_text(text: str):
    """The pipeline's stages for a program's source text (every pass's output verified, for the
    invariants it declares it preserves too), compiled with the options of its ``# options:`` line."""
    return compile_with(text, options_of(text), recheck_preserved=True)


def inputs_for(program, values) -> Inputs:
    from nanopass.api import surface_of

    from .check import program_inputs

    return program_inputs(surface_of(program), values)


def traces(text: str, values: dict[str, str], gxx: bool = False):
    """(stages, inputs, check result) of a program text; raises PropertyFailure on a broken pass or
    a stage whose trace disagrees with the reference."""
    from nanopass.errors import InternalError

    try:
        stages, program = compile_text(text)
        inputs = inputs_for(program, values)
        known = {}
        for item in stage_traces(stages, inputs):
            if item.error is not None:
                raise PropertyFailure(f"{item.stage.name}: not interpretable: {item.error}", text, values)
            if item.difference is not None:
                raise PropertyFailure(f"{item.stage.name}: trace differs: {item.difference}", text, values)
            known[item.stage.index] = item.trace
        return stages, inputs, check_stages(stages, inputs, gxx=gxx, known=known, options=options_of(text))
    except InternalError as error:
        raise PropertyFailure(f"compiler or checker error: {error}", text, values) from None


# -- the independent oracle ------------------------------------------------------------------------------


def elements(trace: Trace, view, index=None) -> frozenset[int]:
    """The flat element indices of a view (or of one element of it) in its buffer."""
    if index is not None:
        return frozenset({view.offset + sum(i * s for i, s in zip(index, view.strides))})
    points = [view.offset]
    for extent, stride in zip(view.shape, view.strides):
        points = [p + k * stride for p in points for k in range(extent)]
    return frozenset(points)


def oracle_conflicts(trace: Trace) -> set[tuple[int, int]]:
    """(earlier task number, later task number) of every pair that touches a common element of a
    buffer, one of them writing, not declared independent (pl.parallel iterations, pl.no_dep) or
    untracked (manual_dep). A dummy task runs no kernel: its slots touch no element."""
    accesses = []
    numbers = task_numbers(trace)
    for index, event in enumerate(trace.events):
        if isinstance(event, Task) and event.kind != "dummy":
            for arg in event.tensors:
                read = arg.tag in ("INPUT", "INOUT", "NO_DEP")
                write = arg.tag in ("OUTPUT", "INOUT", "OUTPUT_EXISTING")
                untracked = arg.tag == "NO_DEP" or arg.manual_dep
                accesses.append((index, arg.view.buffer, elements(trace, arg.view), read, write, untracked))
        elif isinstance(event, (HostRead, HostWrite)):
            write = isinstance(event, HostWrite)
            accesses.append(
                (index, event.view.buffer, elements(trace, event.view, event.index), not write, write, event.manual_dep)
            )
    out = set()
    for j, (bi, bb, be, br, bw, bn) in enumerate(accesses):
        for ai, ab, ae, ar, aw, an in accesses[:j]:
            if ai == bi or ab != bb or not (aw or bw) or an or bn or not (ae & be):
                continue
            first, second = trace.events[ai], trace.events[bi]
            loops = dict(first.par)
            if any(loop in loops and loops[loop] != it for loop, it in second.par):
                continue
            if ai in numbers and bi in numbers:
                out.add((numbers[ai], numbers[bi]))
    return out


def explicit_order(trace: Trace) -> dict[int, set[int]]:
    """Task number -> the task numbers it waits for through explicit dependencies, transitively,
    or through a host wait before it (a host read of an element a dummy task created: the
    orchestration thread goes on only once that dummy, and what it waits for, completed)."""
    ids: dict[int, int] = {}
    before: dict[int, set[int]] = {}
    waits: dict[str, int] = {}  # buffer a dummy task created -> that task's number
    done: set[int] = set()  # tasks every later task comes after (what host waits waited for)
    for event in trace.events:
        if isinstance(event, Task):
            n = len(before)
            reach = set(done)
            for dep in event.deps:
                if dep in ids:
                    reach |= before[ids[dep]] | {ids[dep]}
            before[n] = reach
            ids[event.id] = n
            if event.kind == "dummy":
                waits.update((arg.view.buffer, n) for arg in event.tensors if arg.tag == "OUTPUT")
        elif isinstance(event, HostRead) and event.view.buffer in waits:
            w = waits[event.view.buffer]
            done |= before[w] | {w}
    return before


def oracle_unordered(trace: Trace) -> set[tuple[int, int]]:
    """The conflicting pairs inside one manual scope that no explicit dependency or host wait
    orders (the runtime orders nothing else there, and the compiler adds nothing else there)."""
    before = explicit_order(trace)
    numbers = task_numbers(trace)
    scope_of = {numbers[index]: scope for index, scope in manual_scopes(trace).items() if index in numbers}
    return {
        (a, b) for a, b in oracle_conflicts(trace)
        if a not in before[b] and scope_of.get(a) is not None and scope_of.get(a) == scope_of.get(b)
    }


# -- dependencies from hazards -------------------------------------------------------------------------------


def sites_of(program: GenProgram, trace: Trace, deps=None) -> list[int | None]:
    """The generating site of each task of the trace (None for a dummy barrier or a task outside
    the manual scope)."""
    by_line = program.site_of_line(deps)
    return [by_line.get(task.line) if task.kind == "kernel" else None for task in trace.tasks()]


def visible(program: GenProgram, source: int, target: int) -> bool:
    """Is ``tid_<source>`` visible at the submit of ``target`` (source's block encloses it, before it)?"""
    a, b = program.sites[source].path, program.sites[target].path
    depth = len(a) - 1
    return source != target and len(b) > depth and a[:depth] == b[:depth] and a[depth][0] == b[depth][0] and a[depth][1] < b[depth][1]


def same_iteration(program: GenProgram, source: int, target: int) -> bool:
    """Are all of source's loops also target's (so ``h_<source>[slot]`` means this iteration)?"""
    a, b = program.sites[source].loops, program.sites[target].loops
    return source != target and b[: len(a)] == a


def in_scope_conflicts(program: GenProgram, trace: Trace, deps=None) -> set[tuple[int, int]]:
    """(source site, target site) of the oracle's conflicting pairs inside one instance of the
    manual scope: the pairs the program's own dependencies must order."""
    site = sites_of(program, trace, deps)
    numbers = task_numbers(trace)
    scope_of = {numbers[index]: scope for index, scope in manual_scopes(trace).items() if index in numbers}
    return {
        (site[a], site[b]) for a, b in oracle_conflicts(trace)
        if site[a] is not None and site[b] is not None and scope_of.get(a) is not None and scope_of.get(a) == scope_of.get(b)
    }


def derive_deps(program: GenProgram, rng: random.Random) -> tuple[dict[int, list[Dep]], Trace]:
    """Dependencies that order every conflicting pair inside each instance of a manual program's
    manual scope, on every run, written in a mix of the ways the generator knows, and the trace of
    the program with them (on ``program.values()``)."""
    skeleton = program.render()
    stages, dsl = compile_text(skeleton)
    runs = [inputs_for(dsl, values) for values in program.value_sets()]
    reference = reference_stage(stages).tree
    needed = sorted(set().union(*(in_scope_conflicts(program, interpret(reference, inputs)) for inputs in runs)))
    ways: dict[tuple[int, int], str] = {}
    places = {source: rng.choice(["top", "outer", "inner"]) for source, _ in needed}
    for pair in needed:
        options = ["history"]
        if visible(program, *pair):
            options += ["tid", "tid"]
        if same_iteration(program, *pair):
            options.append("slot")
        if program.carry_visible(pair[0], places[pair[0]], pair[1]):
            options += ["carry", "carry"]
        ways[pair] = rng.choice(options)
    barrier = {target for _, target in needed if rng.random() < 0.25}
    refused = None
    for _ in range(4):
        deps = _assemble(needed, ways, barrier, places)
        try:
            stages, dsl = compile_text(program.render(deps))
        except UserError as error:
            refused = error
            ways = {pair: "history" for pair in ways}
            continue
        reference = reference_stage(stages).tree
        finals = [interpret(reference, inputs) for inputs in runs]
        missing = set()
        for final in finals:
            site = sites_of(program, final, deps)
            missing |= {(site[a], site[b]) for a, b in oracle_unordered(final)}
        if not missing:
            return deps, finals[0]
        for pair in missing:
            ways[pair] = "history"
    why = f" (the compiler refused them: {refused})" if refused is not None else ""
    raise PropertyFailure(f"could not derive dependencies that order every hazard{why}", program.render(), program.values())


def _assemble(needed, ways, barrier, places) -> dict[int, list[Dep]]:
    deps: dict[int, list[Dep]] = {}
    for source, target in needed:
        deps.setdefault(target, []).append(Dep(ways[(source, target)], source, place=places[source]))
    for target in barrier & set(deps):
        deps[target] = [Dep("barrier", -1, tuple(deps[target]))]
    return deps


# -- the properties ------------------------------------------------------------------------------------------


def auto_failures(program: GenProgram, findings: Findings, gxx: bool = False, name: str = "") -> list[Failure]:
    """The failing runs of an AUTO program."""
    text = program.render()
    return check_text(text, program.value_sets(), findings, options=options_of(text), gxx=gxx, recheck_preserved=True,
                      extra=_oracle_check, name=name)


def check_auto(program: GenProgram, stats: Stats, gxx: bool = False) -> None:
    _raise_first(auto_failures(program, stats.findings, gxx))


def _raise_first(failures: list[Failure]) -> None:
    if failures:
        failure = failures[0]
        raise PropertyFailure(f"{failure.kind} (issue 21, class {failure.defect}): {failure.message}",
                              failure.program, failure.values)


def _precise(box) -> bool:
    return box.exact or box.elems is not None


def _oracle_check(result, values: dict[str, str]) -> str | None:
    """The checker's conflicting pairs (box regions) are the oracle's (element sets), plus only
    pairs involving a conservative region (one that is no box and has too many elements to list)."""
    trace = with_parallel(result.reference, result.emission)
    numbers = task_numbers(trace)
    mine = {
        (numbers[h.first], numbers[h.second]): h
        for h in find_hazards(trace, unordered=True)
        if h.waived is None and h.first in numbers and h.second in numbers
    }
    theirs = oracle_conflicts(trace)
    missed = theirs - set(mine)
    extra = {pair for pair in set(mine) - theirs if _precise(mine[pair].first_box) and _precise(mine[pair].second_box)}
    if missed or extra:
        return f"conflicting pairs differ: checker misses {sorted(missed)}, adds {sorted(extra)}"
    return None


def compile_generated(program: GenProgram, seed: int, options: dict | None = None):
    """(source text, stages, DSL program) of a generated program, a manual one with the
    dependencies ``derive_deps`` writes for it, compiled with its ``# options:`` line and
    ``options``; ``None`` when the compiler refuses it because no compilation of it is correct.
    Any other error is raised."""
    try:
        text = program.render(derive_deps(program, random.Random(seed))[0] if program.manual else None)
        stages, dsl = compile_with(text, {**options_of(text), **(options or {})}, recheck_preserved=True)
    except UserError as error:
        if has_no_correct_compilation(error):
            return None
        raise
    return text, stages, dsl


def manual_failures(program: GenProgram, seed: int, findings: Findings, gxx: bool = False, name: str = ""):
    """(the dependencies derived for a manual program, the failing runs of the program with them);
    a program the compiler refuses, or whose dependencies cannot be derived, is one failure."""
    try:
        deps, _ = derive_deps(program, random.Random(seed))
    except UserError as error:
        findings.programs += 1
        if has_no_correct_compilation(error):  # (refused by design: not a failure)
            findings.refused_by_design += 1
            return None, []
        failure = Failure("refusal", "7", f"refused: {error}", program.render(), program.values(), name)
        findings.add(failure)
        findings.failures += 1
        return None, [failure]
    except (InternalError, PropertyFailure) as error:
        findings.programs += 1
        failure = Failure("crash", "-", f"deriving dependencies: {error}", program.render(), program.values(), name)
        findings.add(failure)
        findings.failures += 1
        return None, [failure]
    text = program.render(deps)
    return deps, check_text(text, program.value_sets(), findings, options=options_of(text), gxx=gxx, recheck_preserved=True,
                            extra=_oracle_check, name=name)


def check_manual(program: GenProgram, seed: int, stats: Stats, gxx: bool = False) -> None:
    deps, failures = manual_failures(program, seed, stats.findings, gxx)
    _raise_first(failures)
    if deps is None:  # (refused by design: no dependencies to remove)
        return
    rng = random.Random(seed + 1)
    entries = [(target, k) for target, ds in sorted(deps.items()) for k in range(len(ds))]
    rng.shuffle(entries)
    for target, k in entries[:6]:
        fewer = {t: [d for i, d in enumerate(ds) if (t, i) != (target, k)] for t, ds in deps.items()}
        reduced = program.render(fewer)
        _, _, cut = traces(reduced, program.values(), gxx=False)
        trace = with_parallel(cut.reference, cut.emission)
        expected = oracle_unordered(trace)
        if not expected:
            continue
        numbers = task_numbers(trace)
        scopes = manual_scopes(trace)
        inside = {
            (numbers[h.first], numbers[h.second]) for h in cut.failing
            if h.first in numbers and h.second in numbers and in_one_manual_scope(trace, h, scopes)
        }
        stats.edges_removed += 1
        stats.hazards_reported += len(inside)
        # Pairs across the scope's boundary may come undone with the removed edge too (the
        # compiler orders a task before the scope with the first task inside that touches the
        # tensor, one after it with the scope's last writer; the user's edges chain the rest),
        # and the same program with every edge had no hazard: only in-scope pairs are compared.
        if inside != expected:
            raise PropertyFailure(
                f"after removing a needed edge the checker reports {sorted(inside)} in the manual scope, "
                f"the oracle {sorted(expected)}",
                reduced, program.values(),
            )
        return


# -- the fuzzing tool ------------------------------------------------------------------------------------------


def run_hypothesis(
    seed: int, examples: int, stats: Stats, out: Path | None, gxx: bool, statements: int = 9, features=None
) -> None:
    """One batch of each property under hypothesis (failures are shrunk and saved)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st

    config = settings(
        max_examples=examples, database=None, deadline=None, suppress_health_check=list(HealthCheck), print_blob=False
    )
    last: list[PropertyFailure] = []

    @hypothesis_seed(seed)
    @config
    @given(programs(manual=False, max_statements=statements, features=features))
    def auto(program):
        try:
            check_auto(program, stats, gxx)
        except PropertyFailure as failure:
            last.append(failure)
            raise

    @hypothesis_seed(seed)
    @config
    @given(programs(manual=True, max_statements=statements, features=features), st.integers(0, 2**31))
    def manual(program, dep_seed):
        try:
            check_manual(program, dep_seed, stats, gxx)
        except PropertyFailure as failure:
            last.append(failure)
            raise

    for prop in (auto, manual):
        try:
            prop()
        except Exception as error:  # noqa: BLE001 - a property failed; keep the shrunk program
            failure = last[-1] if last else None
            message = str(failure or error)
            stats.failures.append(message)
            if out is not None and failure is not None:
                out.mkdir(parents=True, exist_ok=True)
                path = out / f"failure_{seed}_{prop.__name__}_{len(stats.failures)}.py"
                path.write_text(failure.source())
                print(f"saved {path}", file=sys.stderr)
        last.clear()


def run_tally(seed: int, deadline: float, findings: Findings, gxx: bool, statements: int, features) -> int:
    """Seeded random programs, AUTO and manual in turn, until ``deadline``; every failing run is
    counted in ``findings``. Returns the next seed."""
    while time.monotonic() < deadline:
        manual = seed % 2 == 1
        program = generate(RandomChooser(seed), manual, statements, features)
        name = f"seed {seed} ({'manual' if manual else 'AUTO'})"
        if manual:
            manual_failures(program, seed, findings, gxx, name)
        else:
            auto_failures(program, findings, gxx, name)
        seed += 1
    return seed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nanopass.tools.fuzz_deps", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="time budget (default 30)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--examples", type=int, default=25, help="programs per property per batch (default 25)")
    parser.add_argument("--out", type=Path, help="directory for failing programs (default: not saved)")
    parser.add_argument("--gxx", action="store_true", help="also compile and run every program's C++ (slow)")
    parser.add_argument("--statements", type=int, default=9, help="statements per program at most (default 9)")
    parser.add_argument("--all-shapes", action="store_true",
                        help="also the shapes today's compiler gets wrong (pending.PENDING, issue 21)")
    parser.add_argument("--tally", action="store_true",
                        help="do not stop at a failure: count every failing run by kind and issue-21 class")
    args = parser.parse_args(argv)
    features = pending.FEATURES if args.all_shapes else pending.default_features()
    stats = Stats()
    start = time.monotonic()
    deadline = start + args.seconds
    seed = args.seed
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # kill PID: stop and print totals
    try:
        if args.tally:
            seed = run_tally(seed, deadline, stats.findings, args.gxx, args.statements, features)
        else:
            while time.monotonic() < deadline:
                run_hypothesis(seed, args.examples, stats, args.out, args.gxx, args.statements, features)
                seed += 1
    except KeyboardInterrupt:
        print("interrupted: the totals cover the programs that finished", file=sys.stderr)
    findings = stats.findings
    if args.tally:
        print(findings.summary(time.monotonic() - start) + f"\nseeds {args.seed}..{seed - 1}")
        if args.out is not None:
            for path in findings.save(args.out):
                print(f"saved {path}", file=sys.stderr)
        return 1 if findings.failures else 0
    print(
        f"checked {findings.programs} programs ({findings.runs} runs, {findings.tasks} tasks), seeds "
        f"{args.seed}..{seed - 1}; removed {stats.edges_removed} needed edges, {stats.hazards_reported} hazards "
        f"reported for them; {len(stats.failures)} failures"
    )
    for failure in stats.failures:
        print("FAILURE: " + failure.splitlines()[0])
    return 1 if stats.failures else 0


if __name__ == "__main__":
    sys.exit(main())
