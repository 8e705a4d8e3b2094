"""`python -m nanopass.tools.attack`: run the adversarial tester and save what fails.

  --seconds N --seed S --out DIR      random programs for N seconds
  --exhaustive --size K --out DIR     every program of the bounded grammar up to K items
  --exhaustive --grammar rows --size K [--max-atoms A] --out DIR
                                      the same over rows.py's grammar (small tensors, row blocks of a
                                      target, assemble, careful manual deps), one per renaming class
  --exhaustive --grammar scopes --size K [--max-atoms A] --out DIR
                                      the same over scopes.py's grammar (buffers made and replaced in
                                      scopes, manual scopes, loops and carries; runs for n in 0..3)
  --exhaustive --grammar directions ...
                                      the same over directions.py's grammar (two pl.Out parameters
                                      reached through if results, carries and copies; host reads of
                                      both at the end; runs for n in 0..3)
  --exhaustive ... --shapes PATTERN   only the programs of the shapes PATTERN matches (repeatable),
                                      e.g. --grammar scopes --shapes 'with(loop(atom)),atom': a
                                      manual or AUTO scope around a loop around an atom, then an atom
                                      (grammar.py: atom, block names, with, loop, block)
  --exhaustive --grammar nested|nested3 --size K ...
                                      the same over nested.py's grammar (an assemble of an assemble,
                                      two or three levels, uses of each level around each assemble)
  --grammar nested|nested3 --seconds N --seed S ...
                                      random programs of that grammar (up to --max-size items)
  --surface --seconds N --seed S ...  random programs over issue 22's DSL surface (surface_generate.py)
  --grammar scalars [--exhaustive --size K | --seconds N --seed S] ...
                                      scalars and dynamic shapes checked by value (scalars.py): task
                                      scalar arguments, tensor shapes and offsets, host writes
  --grammar printed [--exhaustive --size K | --seconds N --seed S] ...
                                      programs rendered in the existing compiler's printed IR (printed.py),
                                      as written and after its pipeline, compiled by nanopass.compile_text
  --grammar printed-scalars [...]     the scalars grammar's programs printed as written (printed_scalars.py)
  --grammar printed-arrays --seconds N --seed S ...
                                      printed IR with TaskId arrays named by version: updates,
                                      old versions read in deps (slots, whole arrays), carried
                                      through loops and branches, AUTO or manual; each task's
                                      explicit waits checked against its deps (printed_arrays.py)
  --grammar carries [--exhaustive --size K | --seconds N --seed S] ...
                                      one loop with two or three tensor carries kept, swapped or
                                      rotated (carries.py); lean.py's figures of each program too
                                      (summed in the summary, per program in DIR/lean.txt)
  --grammar loops2 [--exhaustive --size K | --seconds N --seed S] ...
                                      a pl.while_ loop or two nested pl.range loops over one to
                                      three tensor carries, bodies guarded by first-iteration and
                                      parity tests (loops2.py); lean.py's figures as carries'
  --grammar loops2-const --seconds N --seed S ...
                                      the same with constant trip counts too (random programs)
  --grammar fences [--exhaustive --size 1|2 | --seconds N --seed S] ...
                                      a pl.parallel / pl.range / pl.while_ loop carrying a TaskId, in
                                      AUTO code or a manual scope: deps= on the carry and the body's
                                      last id, guards on the iteration, task_dummy joins, pl.no_dep,
                                      host reads and writes (fences.py); lean.py's figures as carries'
  --grammar assume --seconds N --seed S ...
                                      programs around the facts session 27's lean rules rest on and
                                      their near-misses (assume.py): constant pl.parallel loops,
                                      scalar-parameter guards, dead branches, host access in a manual
                                      scope, TaskId joins, tensors made in a loop, constant while
                                      loops, manual_dep carries; lean.py's figures as carries'
  --grammar iterations [--exhaustive --size K | --seconds N --seed S] ...
                                      a loop whose iterations differ: guards on the counter, swapped
                                      carries, carries started as one tensor, a tensor made in the
                                      body, pl.while_, constant pl.range / pl.parallel, a nest whose
                                      inner bound is the outer counter (iterations.py)
  --grammar offsets [--exhaustive --size K | --seconds N --seed S] ...
                                      slices and assembles of a loop-carried [32, 4] tensor at
                                      offsets the counters compute (i * 8, (i % 2) * 8, i * 4,
                                      8 - i * 8, an outer counter's, ...): readers, writers,
                                      updaters and host accesses of slices, slices of slices and
                                      the whole tensor in pl.range / pl.while_ / nested loops under
                                      guards on the counter (offsets.py)
  --grammar offsets-parallel --seconds N --seed S ...
                                      the same with a pl.parallel loop, or a nest whose outer
                                      loop is pl.parallel (random programs)
  --grammar nests [--exhaustive --size 1|2 | --seconds N --seed S] ...
                                      an inner loop (pl.range(2|3|n), a counted pl.while_) and a
                                      further loop after it in an outer loop, AUTO or in a manual
                                      scope: waiters in the further loop and in branches on the
                                      counters, chained or own-buffer runs, the user's deps= on a
                                      carried TaskId; every deps= entry checked too (nests.py)
  --grammar retire --seconds N --seed S ...
                                      writers of a and b in pl.scope()s, loops and guards, then
                                      readers and host writes and reads after those scopes ended:
                                      a host write must not count on a reader submitted after its
                                      producer could retire (retire.py, rtmodel.py's retirement)
  --exhaustive --grammar retire --size K [--skip K] ...
                                      every program of up to K items over writers, readers, host
                                      writes and reads of `a` and of a row block of it, in
                                      pl.scope()s, pl.range(2) / pl.range(n) loops, `if i == 0` /
                                      `if i >= 1` and manual scopes (retire.py's exhaustive mode)
  --grammar guards-while [--exhaustive --size K | --seconds N --seed S] ...
                                      guards' programs around a pl.while_ loop to n, 2, 1 or 0
                                      whose counter is a carry: guards on it, (t, u) carried kept
                                      or swapped, nests, manual scopes, TaskId chains, PRE loops;
                                      both runtime models (guards_while.py)
  --grammar rebinds [--exhaustive --size K | --seconds N --seed S] ...
                                      tensor and view names rebound to creates and to a parameter
                                      in pl.range / pl.parallel loops, branches, swaps and swapped
                                      init_values carries, used by tasks (whole and row blocks),
                                      host accesses and assembles, AUTO or in manual scopes; both
                                      runtime models (rebinds.py)

Each failing program is saved as DIR/<class>/<name>.py with its failures in a header comment;
the first few of each class are minimised into DIR/minimal/. The figures (programs, tasks, runs,
hazards, value mismatches, g++ rejections, crashes, refused programs, per-class counts) are printed
and written to DIR/summary.json. A run owns what it writes in DIR: DIR/.nanopass-attack lists
those files, and the next run into DIR removes them first (and nothing else there). Every compiled program of every grammar is also checked by
`nanopass check`'s value comparison (runner.values_noting; guards' grammars by
guards.model_failures) under each of its settings: "value mismatches (check)" counts its
mismatches (class "value mismatch (check)", within "value mismatches"), "value-checked runs"
the runs it compared, "check crashes" its own failures. A refused program is counted as the failing list classes it
(runner.Report.classes): a refusal of a valid program (class `refusal`, saved in DIR/refusal/)
or of a program with no correct compilation (right, not failing; runner.Report.refusal_check).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

from . import assume, carries, directions, exhaustive, fences, generate, grammar, guards, guards_while, iterations, loops2, nested, nests, offsets, printed, printed_arrays, printed_scalars, rebinds, record, retire, rows, runner, scalars, scopes, shrink, surface_generate
from . import blocks
from . import program as P

COMPILE_TIMEOUT_S = 60
GRAMMARS = {"rows": rows, "scopes": scopes, "directions": directions,    # the exhaustive grammars besides exhaustive.py's
            "blocks": blocks,
            "nested": nested.TWO, "nested3": nested.THREE, "scalars": scalars, "printed": printed,
            "printed-scalars": printed_scalars, "printed-arrays": printed_arrays, "carries": carries, "loops2": loops2,
            "loops2-const": loops2.CONSTANT_TRIPS, "fences": fences, "assume": assume,
            "iterations": iterations, "offsets": offsets, "offsets-parallel": offsets.PARALLEL,
            "nests": nests, "retire": retire, "guards": guards, "guards-while": guards_while,
            "rebinds": rebinds}


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def _check(prog: P.Program, host_region: str) -> runner.Report:
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(COMPILE_TIMEOUT_S)
    try:
        if hasattr(prog, "check"):      # a grammar with a program model of its own (scalars.py)
            return prog.check(host_region)
        return runner.check(prog, host_region=host_region)
    except _Timeout:
        rep = runner.Report(prog.source if hasattr(prog, "check") else P.render(prog).source)
        rep.failures.append((None, runner.oracle.Failure("compiler timeout", f"over {COMPILE_TIMEOUT_S} s")))
        return rep
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def work(name: str, prog: P.Program, host_region: str) -> dict:
    """Check one program (in a worker process); a picklable summary."""
    t = time.monotonic()
    rep = _check(prog, host_region)
    return {
        "name": name, "prog": prog, "source": rep.source, "classes": sorted(rep.classes()),
        "failures": [(s, f.cls, f.detail) for s, f in rep.failures], "refusal": rep.refusal,
        "invalid": rep.invalid, "right refusal": rep.refusal_check(),
        "runs": rep.runs, "tasks": rep.tasks, "checked": rep.checked, "seconds": time.monotonic() - t,
        "text": runner.describe(rep), "lean": getattr(rep, "lean", None),
    }


def minimise(name: str, prog: P.Program, cls: str, host_region: str, budget_s: float) -> dict:
    def still(cand):
        return cls in _check(cand, host_region).classes()
    small = shrink.shrink(prog, still, budget_s)
    rep = _check(small, host_region)
    return {"name": name, "cls": cls, "source": rep.source, "text": runner.describe(rep), "prog": small}


def slug(cls: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", cls).strip("-").lower() or "unknown"


def _header(text: str) -> str:
    return "".join(f"# {line}\n" for line in text.splitlines())


MANIFEST = ".nanopass-attack"   # in --out DIR: the files the run into DIR wrote there, one a line


class RunFiles:
    """The files a run writes into its --out DIR, each listed in DIR's manifest as it is first
    written (a run cut short leaves its list too). `claim` removes what the previous run into
    DIR wrote (the files its manifest lists, and the folders they leave empty) and nothing else:
    DIR then holds this run's files only, beside any of the user's, so no figure, example or
    minimal program of an earlier run is read as this one's."""

    def __init__(self, out: Path):
        self.out = out
        self.written: list[str] = []

    def claim(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        manifest = self.out / MANIFEST
        listed = manifest.read_text().splitlines() if manifest.is_file() else []
        for name in listed:
            path = self._inside(name)
            if path is None or not path.is_file():
                continue
            path.unlink()
            for folder in path.parents:
                if folder == self.out or any(folder.iterdir()):
                    break
                folder.rmdir()
        self._write_manifest()

    def _inside(self, name: str) -> Path | None:
        """`name` as a path in DIR, or None for a line that names none (absolute, or up through ..)."""
        relative = Path(name)
        if not name or relative.is_absolute() or ".." in relative.parts:
            return None
        return self.out / relative

    def path(self, name: str) -> Path:
        """The path of file `name` (relative to DIR) of this run, listed in the manifest."""
        if name not in self.written:
            self.written.append(name)
            self._write_manifest()
        return self.out / name

    def write(self, name: str, text: str) -> None:
        path = self.path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def _write_manifest(self) -> None:
        (self.out / MANIFEST).write_text("".join(name + "\n" for name in self.written))


class Tally:
    def __init__(self, out: Path, files: RunFiles | None = None):
        self.out = out
        self.files = files if files is not None else RunFiles(out)
        self.c = Counter()
        self.per_class = Counter()
        self.examples = defaultdict(list)        # class -> [(source size, name, prog)]
        self.refusals = Counter()
        self.all_refusals = Counter()             # every refusal, right or not, by masked message
        self.lean = Counter()                    # lean.py's figures summed (grammars that measure them)

    def add(self, r: dict) -> None:
        c = self.c
        if r.get("lean") is not None:
            self.lean.update(r["lean"])
            self.lean["programs measured"] += 1
            with open(self.files.path("lean.txt"), "a") as f:
                f.write(f"{r['name']}: " + ", ".join(f"{k} {v}" for k, v in r["lean"].items()) + "\n")
        c["programs"] += 1
        c["runs"] += r["runs"]
        c["tasks"] += r["tasks"]
        c["value-checked runs"] += r.get("checked", 0)
        c["seconds"] += r["seconds"]
        if r["invalid"]:
            c["tester-invalid"] += 1
        for _, cls, _ in r["failures"]:
            if cls.startswith("hazard"):
                c["hazards"] += 1
            elif cls.startswith("value"):
                c["value mismatches"] += 1
                if cls == runner.CHECK_VALUES:
                    c["value mismatches (check)"] += 1
            elif cls.startswith("check"):
                c["check crashes"] += 1
            elif cls == "g++ rejects":
                c["g++ rejections"] += 1
            elif cls.startswith("compiler"):
                c["crashes"] += 1
            elif cls.startswith("runtime"):
                c["runtime errors"] += 1
            elif cls.startswith("trace"):
                c["trace mismatches"] += 1
            elif cls.startswith("warning"):
                c["warnings of freed buffers"] += 1
        if r["refusal"]:  # (counted as the failing list classes it: a refusal of a valid program fails)
            c["refused programs"] += 1
            msg = re.sub(r"^prog\.py:\d+:\d+: error: ", "", r["refusal"].splitlines()[0])
            # (names and line numbers masked: one message per kind of refusal)
            msg = re.sub(r"\bline \d+", "line …", re.sub(r"'[^']*'", "'…'", msg))
            self.all_refusals[msg] += 1
            if "refusal" in r["classes"]:
                c["refusals of valid programs"] += 1
                self.refusals[msg] += 1
            else:
                c["refusals of programs with no correct compilation"] += 1
                c["right refusals tied by name" if r["right refusal"] == "name" else "right refusals tied by kind only"] += 1
        failing = list(r["classes"])
        if failing or r["invalid"]:
            c["failing programs"] += 1
        for cls in failing + (["tester-invalid"] if r["invalid"] else []):
            self.per_class[cls] += 1
            if len(self.examples[cls]) < 50:
                self.files.write(f"{slug(cls)}/{r['name']}.py", _header(r["text"]) + r["source"])
            self.examples[cls].append((len(r["source"]), r["name"], r["prog"]))

    def summary(self) -> dict:
        out = {"figures": dict(self.c), "classes": dict(self.per_class.most_common()),
               "refusals": dict(self.refusals.most_common()),
               "all refusals": dict(self.all_refusals.most_common())}
        if self.lean:
            out["lean"] = dict(self.lean)
        return out


def _sizes(args) -> range:
    """The exhaustive sizes a run enumerates: 1..--size, or only those its --shapes patterns have."""
    if args.shapes:
        return range(min(map(grammar.pattern_size, args.shapes)), max(map(grammar.pattern_size, args.shapes)) + 1)
    return range(1, args.size + 1)


def _tag(args) -> str:
    """What program names and the mode say of --max-atoms and --shapes."""
    return ("" if args.max_atoms is None else f"a{args.max_atoms}") + ("s" if args.shapes else "")


def _programs(args):
    if args.exhaustive and args.grammar in GRAMMARS:
        for size, i, prog in grammar.numbered(GRAMMARS[args.grammar], _sizes(args), args.skip, args.max_atoms,
                                              args.shapes):
            yield f"{args.grammar}{size}{_tag(args)}-{i:05d}", prog
        return
    if args.exhaustive:
        atoms = exhaustive.ALPHABETS[args.alphabet]
        for size in _sizes(args):
            for i, prog in enumerate(exhaustive.programs(size, atoms, patterns=args.shapes)):
                yield f"ex{args.alphabet}{size}{_tag(args)}-{i:05d}", prog
        return
    i = 0
    gen, tag = surface_generate.generate if args.surface else generate.generate, "s" if args.surface else "r"
    if not args.surface and hasattr(GRAMMARS.get(args.grammar), "generate"):
        gen, tag = GRAMMARS[args.grammar].generate, args.grammar     # a grammar's own random programs
    while True:
        seed = args.seed * 10_000_000 + i
        yield f"{tag}{seed}", gen(seed, None if args.max_size is None else
                                            min(args.max_size, 2 + seed % (args.max_size - 1)))
        i += 1


def _count(args) -> int:
    """The number of programs an exhaustive run enumerates (before --skip and --limit)."""
    if args.grammar in GRAMMARS:
        return sum(GRAMMARS[args.grammar].count(k, max_atoms=args.max_atoms, patterns=args.shapes)
                   for k in _sizes(args))
    return sum(exhaustive.count(k, exhaustive.ALPHABETS[args.alphabet], patterns=args.shapes) for k in _sizes(args))


def _write_summary(args, tally: Tally, elapsed: float, partial: bool) -> dict:
    summary = tally.summary()
    summary["figures"]["wall seconds"] = round(elapsed, 1)
    sizes = _sizes(args)
    shapes = "" if not args.shapes else f" shapes {' | '.join(args.shapes)}"
    summary["mode"] = (f"exhaustive {args.grammar} grammar size {sizes.stop - 1}"
                       + ("" if args.max_atoms is None else f" at most {args.max_atoms} atoms") + shapes
                       if args.exhaustive and args.grammar in GRAMMARS else
                       f"exhaustive size {sizes.stop - 1} ({args.alphabet} alphabet){shapes}" if args.exhaustive
                       else f"random{' surface' if args.surface else ''}"
                       f"{' ' + args.grammar if hasattr(GRAMMARS.get(args.grammar), 'generate') else ''} seed {args.seed}")
    if args.exhaustive:
        summary["programs in the grammar"] = _count(args)
    summary["partial"] = partial
    tally.files.write("summary.json", json.dumps(summary, indent=2, sort_keys=True) + "\n")
    return summary


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m nanopass.tools.attack", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=None,
                    help="time budget (random runs: default 60; exhaustive runs: none)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-size", type=int, default=None, help="largest random program (statements)")
    ap.add_argument("--exhaustive", action="store_true", help="enumerate the bounded grammar")
    ap.add_argument("--surface", action="store_true",
                    help="random programs over issue 22's constructs (pl.at, pl.spmd, inline, while_, ...)")
    ap.add_argument("--size", type=int, default=2, help="largest exhaustive program (items)")
    ap.add_argument("--alphabet", choices=sorted(exhaustive.ALPHABETS), default="full",
                    help="exhaustive atoms: all fourteen, or the four over one tensor")
    ap.add_argument("--grammar", choices=("tensors",) + tuple(GRAMMARS), default="tensors",
                    help="exhaustive grammar: exhaustive.py's (two tensors), rows.py's or scopes.py's")
    ap.add_argument("--max-atoms", type=int, default=None,
                    help="rows and scopes grammars: only programs with at most this many atoms")
    ap.add_argument("--shapes", action="append", default=[], metavar="PATTERN",
                    help="exhaustive runs: only programs of a shape this pattern matches, e.g. "
                         "'with(loop(atom)),atom' (repeat for several; grammar.py's doc; sets the size)")
    ap.add_argument("--limit", type=int, default=None, help="stop after this many programs")
    ap.add_argument("--skip", type=int, default=0,
                    help="exhaustive runs of a grammar module: leave out its first K programs (go on with a run cut short)")
    ap.add_argument("--out", type=Path, required=True, metavar="DIR",
                    help="where the run saves its summary and programs; the files an earlier run saved "
                         "there are removed first (the user's own are left), so give a run that goes on "
                         "with --skip a DIR of its own")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--shrink-per-class", type=int, default=2)
    ap.add_argument("--shrink-seconds", type=float, default=120.0)
    ap.add_argument("--host-region", choices=("element", "view"), default="element",
                    help="what a host access waits for in the runtime model (see rtmodel.py)")
    args = ap.parse_args(argv)
    if args.shapes:
        if not args.exhaustive:
            ap.error("--shapes filters an exhaustive run (--exhaustive)")
        try:
            grammar.shape_filter(args.shapes, GRAMMARS[args.grammar].BLOCKS if args.grammar in GRAMMARS
                                 else exhaustive.BLOCKS)
        except ValueError as e:
            ap.error(str(e))
    args.seconds_given = args.seconds is not None
    if args.seconds is None:
        args.seconds = 60.0
    files = RunFiles(args.out)
    files.claim()
    record.recorder_object()
    tally = Tally(args.out, files)
    if args.exhaustive:
        skipped = f", the first {args.skip} skipped" if args.skip and args.grammar in GRAMMARS else ""
        print(f"{_count(args)} programs in the grammar (sizes {_sizes(args).start}..{_sizes(args).stop - 1}){skipped}",
              flush=True)
    start = time.monotonic()
    gen = _programs(args)
    submitted = 0
    stop = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.append(1))
    budget = args.seconds if (not args.exhaustive or args.seconds_given) else float("inf")
    last_note = start
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        pending = set()
        order: dict = {}  # a pending future -> its place in the order of submission
        while True:
            while len(pending) < 2 * args.jobs and not stop:
                if time.monotonic() - start >= budget:
                    break
                if args.limit is not None and submitted >= args.limit:
                    break
                nxt = next(gen, None)
                if nxt is None:
                    break
                future = pool.submit(work, nxt[0], nxt[1], args.host_region)
                order[future] = submitted
                pending.add(future)
                submitted += 1
            if not pending:
                break
            done, pending = wait(pending, timeout=5, return_when=FIRST_COMPLETED)
            for f in sorted(done, key=order.pop):  # (those done together, in the order they were submitted)
                tally.add(f.result())
            if time.monotonic() - last_note >= 60:
                last_note = time.monotonic()
                _write_summary(args, tally, last_note - start, partial=True)
                fig = tally.c
                print(f"[{last_note - start:6.0f} s] {fig['programs']} programs, {fig['failing programs']} failing, "
                      f"classes: {', '.join(sorted(tally.per_class))}", file=sys.stderr, flush=True)
        elapsed = time.monotonic() - start
        jobs = []
        for cls, exs in sorted(tally.examples.items()) if not stop else ():
            if cls in ("refusal", "tester-invalid"):
                continue
            for _, name, prog in sorted(exs, key=lambda e: e[0])[:args.shrink_per_class]:
                jobs.append(pool.submit(minimise, name, prog, cls, args.host_region, args.shrink_seconds))
        for f in jobs:
            m = f.result()
            files.write(f"minimal/{slug(m['cls'])}--{m['name']}.py", _header(f"class: {m['cls']}\n{m['text']}") + m["source"])
    summary = _write_summary(args, tally, elapsed, partial=bool(stop))
    fig = summary["figures"]
    done = "" if not args.exhaustive else f" (of {summary['programs in the grammar']})"
    print(f"{summary['mode']}: {fig.get('programs', 0)}{done} programs, {fig.get('tasks', 0)} tasks, "
          f"{fig.get('runs', 0)} runs in {elapsed:.0f} s")
    for key in ("hazards", "value mismatches", "value mismatches (check)", "value-checked runs", "check crashes",
                "g++ rejections", "crashes", "refused programs",
                "refusals of valid programs", "refusals of programs with no correct compilation", "right refusals tied by name",
                "right refusals tied by kind only", "runtime errors",
                "trace mismatches", "warnings of freed buffers", "tester-invalid", "failing programs"):
        print(f"  {key}: {fig.get(key, 0)}")
    if "lean" in summary:
        print("  lean figures (tools/attack/lean.py, summed; per program in DIR/lean.txt): "
              + ", ".join(f"{k} {v}" for k, v in summary["lean"].items()))
    print("  programs per failure class:")
    for cls, n in summary["classes"].items():
        print(f"    {n:6d}  {cls}")
    if summary["refusals"]:
        print("  refusals of valid programs, by message:")
        for msg, n in summary["refusals"].items():
            print(f"    {n:6d}  {msg}")
    if summary["all refusals"]:
        print("  every refusal (right or not), by message:")
        for msg, n in summary["all refusals"].items():
            print(f"    {n:6d}  {msg}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
