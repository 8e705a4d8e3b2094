"""`python -m nanopass.tools.attack.lean_run`: lean.py's figures on the examples, the golden
programs and the tester's grammars (random and exhaustive).

  lean_run files [PATH ...]             every examples/*.py and tests/golden/*.py (or the PATHs):
                                        compiled with their `# options:` line's options, run
                                        once on the recorder with tools/check.sample_values
  lean_run ifchain [--k K ...]          docs/semantics.md gap 4's chain of K ifs (if_chain_source)
  lean_run gen --seed S --count C       tools/gen_programs.py's AUTO programs, run as `files` (no
                                        pl.parallel waivers: a pair they waive shows as unordered)
  lean_run grammar NAME --seconds N --seed S [--out DIR]
  lean_run grammar NAME --exhaustive --size K [--max-atoms A] [--out DIR]
                                        NAME: tensors (generate.py / exhaustive.py), surface
                                        (surface_generate.py, random only) or one of
                                        cli.GRAMMARS' abstract ones (rows, scopes, directions,
                                        nested, nested3); each program run at its settings

Prints one line a program with a figure that is not zero (and total lines: all programs, and
those that write no dependency, where every insertion is the compiler's): insertions (of which
inside one manual scope instance), redundant (of which inside, and implied), minimum (outside:
lean.py's minimum_outside), dummies, insertions/minimum (outside: the insertions not inside over
minimum_outside), unordered needed pairs (of which inside). With --out, each program that writes no dependency
(every insertion the compiler's) with a redundant insertion or an unordered needed pair not
inside one manual scope instance is shrunk (shrink.py, while it keeps that) and written to
DIR/<redundant|unordered>/<name>.py, and the figures to DIR/summary.json.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

from . import cli, exhaustive, generate, lean, oracle, record, runner, shrink, surface_generate
from . import program as P

REPO = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- the examples and the goldens


def recorder_arguments(program) -> list:
    """The recorder's arguments for `program`'s entry at tools/check.sample_values."""
    from nanopass.api import surface_of
    from nanopass.tools.check import program_inputs, sample_values

    surface = surface_of(program)
    inputs = program_inputs(surface, sample_values(surface))
    return ([f"T:{'x'.join(str(d) for d in t.shape)}" for t in inputs.tensors]
            + [f"S:{s}" for s in inputs.scalars])


def file_log(path: Path) -> tuple:
    """(the recorder's log of one run of a DSL file, None), or (None, why it could not run)."""
    import nanopass
    from nanopass.loader import load_programs, pick_program
    from nanopass.tools.gen_programs import options_of

    try:
        program = pick_program(load_programs(str(path)), None, str(path))
        result = nanopass.generate_orchestration(program, **options_of(path.read_text()))
        args = recorder_arguments(program)
    except Exception as e:  # noqa: BLE001 - a file the tool cannot measure is reported, not fatal
        return None, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    wd = Path(tempfile.mkdtemp(prefix="attack-lean-"))
    try:
        built = record.build(result.code, wd)
        if built.binary is None:
            return None, f"g++: {built.gxx_error[:200]}"
        log, err = record.run(built.binary, args)
        return (None, f"recorder: {err[:200]}") if err else (log, None)
    finally:
        shutil.rmtree(wd, ignore_errors=True)


def file_figures(path: Path) -> tuple:
    """(lean.Lean, None) of one DSL file, or (None, why it could not be measured)."""
    log, why = file_log(path)
    return (None, why) if log is None else (lean.analyse(log), None)


def corpus() -> list:
    """Every example and golden program (a .py with an .expected.cpp beside it)."""
    out = []
    for d in (REPO / "examples", REPO / "tests" / "golden"):
        out += sorted(p.with_name(p.name.replace(".expected.cpp", ".py")) for p in d.glob("*.expected.cpp"))
    return out


# ---------------------------------------------------------------- the tester's programs


def program_figures(prog: P.Program) -> tuple:
    """(lean.Lean summed over the program's settings, None), or (None, why not measured: a
    refusal, a compiler failure, the tester's semantics failing, a failing run)."""
    rendered = P.render(prog)
    rep = runner.Report(rendered.source)
    settings = prog.settings or (runner.SURFACE_SETTINGS if prog.surface else runner.SETTINGS)
    seqs = runner.semantics_noting(rep, prog, rendered.lines, settings)
    if seqs is None:
        return None, rep.invalid
    wd = Path(tempfile.mkdtemp(prefix="attack-lean-"))
    try:
        src = wd / "prog.py"
        src.write_text(rendered.source)
        comp = runner.compile_noting(rep, src)
        built = comp and runner.build_noting(rep, comp.code, wd)
        if not built:
            return None, runner.describe(rep).splitlines()[0][:200]
        total = lean.Lean()
        for setting, seq in seqs.items():
            log, err = record.run(built.binary, P.entry_arguments(*setting, surface=prog.surface, extra=prog.extra,
                                                                       extra_shapes=prog.extra_shapes))
            if err:
                return None, f"recorder: {err[:200]}"
            model = lean.R.build(log)
            if model.errors:
                return None, f"runtime: {model.errors[0][1][:200]}"
            nodes_of, bad = oracle.match(seq, model, comp.kernel_ids)
            if bad:
                return None, str(bad)[:200]
            total = total.add(lean.analyse(log, lean.oracle_needed(seq, model, nodes_of)))
        return total, None
    finally:
        shutil.rmtree(wd, ignore_errors=True)


def writes_dependencies(prog: P.Program) -> bool:
    """Does the program write a dependency (a non-empty `deps=`, a `task_dummy`) anywhere, as
    rendered? Where it does not, every insertion is the compiler's (a user's dependency between
    two instances of a manual scope, or in an AUTO scope, cannot be told from the compiler's in
    a log)."""
    return _writes_dependencies(P.render(prog).source)


def _writes_dependencies(source: str) -> bool:
    return bool(re.search(r"deps=\[[^\]]", source)) or "task_dummy" in source


def programs(args):
    """(name, program) of the grammar `args` names, as `python -m nanopass.tools.attack` makes them."""
    if args.grammar == "surface":
        gen = surface_generate.generate
    elif args.grammar == "tensors":
        if args.exhaustive:
            for size in range(1, args.size + 1):
                for i, prog in enumerate(exhaustive.programs(size)):
                    yield f"ex{size}-{i:05d}", prog
            return
        gen = generate.generate
    else:
        grammar = cli.GRAMMARS[args.grammar]
        if args.exhaustive:
            for size in range(1, args.size + 1):
                for i, prog in enumerate(grammar.programs(size, max_atoms=args.max_atoms)):
                    yield f"{args.grammar}{size}-{i:05d}", prog
            return
        gen = grammar.generate
    i = 0
    while True:
        seed = args.seed * 10_000_000 + i
        yield f"{args.grammar}{seed}", gen(seed, None)
        i += 1


# ---------------------------------------------------------------- docs/semantics.md gap 4


def if_chain_source(k: int, readers: str = "independent", split: bool = True) -> str:
    """A chain of `k` ifs, each writing `y` in one branch (`acc`, y InOut) and reading it in the
    other (`step`, y In), docs/semantics.md gap 4. `split`: `if n > i` picks the read, so a run
    reads y in the first n ifs and writes it in the others (every write after every read);
    else `if (n + i) % 2 == 0` picks the write (a run alternates). `readers`: "independent" (each
    read writes a tensor of its own) or "chained" (each read is an InOut writer of one tensor
    `t`, which the runtime chains)."""
    lines = ["import nanopass.dsl as pl", "", "", "@pl.program", "class IfChain:",
             "    @pl.function(type=pl.FunctionType.AIV)",
             "    def acc(self, x: pl.Tensor[[16, 16], pl.FP32], i: pl.Scalar[pl.INT64],",
             "            y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:",
             "        return y", "",
             "    @pl.function(type=pl.FunctionType.AIV)",
             "    def step(self, y: pl.Tensor[[16, 16], pl.FP32],",
             f"             t: pl.{'InOut' if readers == 'chained' else 'Out'}[pl.Tensor[[16, 16], pl.FP32]])"
             " -> pl.Tensor[[16, 16], pl.FP32]:",
             "        return t", "",
             "    @pl.function(type=pl.FunctionType.Orchestration)",
             "    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],",
             "             t: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], sink: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],",
             "             n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:"]
    for i in range(k):
        write = [f"            y = self.acc(x, {i}, y)"]
        read = (["            t = self.step(y, t)"] if readers == "chained" else
                [f"            o{i} = pl.create_tensor([16, 16], dtype=pl.FP32)",
                 f"            o{i} = self.step(y, o{i})",
                 f"            sink = self.acc(o{i}, {i}, sink)"])
        first, second = (read, write) if split else (write, read)
        lines += [f"        if n > {i}:" if split else f"        if (n + {i}) % 2 == 0:", *first,
                  "        else:", *second]
    lines.append("        return y")
    return "\n".join(lines) + "\n"


def if_chain_figures(k: int, readers: str, n: int, split: bool = True) -> tuple:
    """(lean.Lean, None) of the gap-4 chain of `k` ifs run at `n`, or (None, why)."""
    import nanopass
    from nanopass.loader import load_programs, pick_program

    wd = Path(tempfile.mkdtemp(prefix="attack-lean-"))
    try:
        src = wd / "chain.py"
        src.write_text(if_chain_source(k, readers, split))
        try:
            result = nanopass.generate_orchestration(pick_program(load_programs(str(src)), None, str(src)))
        except Exception as e:  # noqa: BLE001 - reported
            return None, f"{type(e).__name__}: {e}"
        built = record.build(result.code, wd)
        if built.binary is None:
            return None, f"g++: {built.gxx_error[:300]}"
        log, err = record.run(built.binary, ["T:16x16"] * 4 + [f"S:{n}"])
        return (None, f"recorder: {err}") if err else (lean.analyse(log), None)
    finally:
        shutil.rmtree(wd, ignore_errors=True)


# ---------------------------------------------------------------- tools/gen_programs.py's programs


def gen_sources(seed: int, count: int):
    """(name, DSL source, writes a dependency?) of `count` AUTO programs of tools/gen_programs.py
    (every deps list the generator leaves open empty)."""
    from nanopass.tools import gen_programs

    for i in range(count):
        src = gen_programs.generate(gen_programs.RandomChooser(seed + i)).render()
        yield f"gen{seed + i}", src, _writes_dependencies(src)


# ---------------------------------------------------------------- reporting


def line(name: str, fig: lean.Lean) -> str:
    f = figures_json(fig)

    def ratio_of(made, least):
        return f"{made / least:.2f}" if least else ("-" if not made else "inf")

    ratio = (f"{ratio_of(fig.insertions, fig.minimum)} (outside "
             f"{ratio_of(fig.insertions - fig.inside, fig.minimum_outside)})")
    return (f"{name}: insertions {f['insertions']} (inside {f['inside']}), redundant {f['redundant']} "
            f"(inside {f['redundant inside']}, implied {f['implied']}), minimum {f['minimum']} "
            f"(outside {f['minimum outside']}), dummies "
            f"{f['dummies']}, ratio {ratio}, unordered {f['unordered']} (inside {f['unordered inside']})")


def figures_json(fig: lean.Lean) -> dict:
    """The figures; "inside": between two nodes of one manual scope instance (the user's)."""
    return {"insertions": fig.insertions, "inside": fig.inside,
            "redundant": len(fig.redundant), "redundant inside": sum(1 for r in fig.redundant if r[3]),
            "implied": sum(1 for r in fig.redundant if r[2]), "minimum": fig.minimum,
            "minimum outside": fig.minimum_outside,
            "dummies": fig.dummies, "unordered": len(fig.unordered),
            "unordered inside": sum(1 for u in fig.unordered if u[2]), "needed": fig.needed}


class Tally:
    """The figures of the programs measured so far: all, and those that write no dependency."""

    def __init__(self):
        self.total, self.own = lean.Lean(), lean.Lean()
        self.measured = self.owns = 0
        self.skipped, self.flagged, self.per_program = [], [], {}

    def add(self, name: str, fig: Optional[lean.Lean], why: str = "", users: bool = False, quiet: bool = True):
        """Note one program's figures (`fig` None: not measured, for `why`); print its line
        unless `quiet` and every figure is 0; `users`: it writes a dependency of its own."""
        if fig is None:
            self.skipped.append((name, why))
            if not quiet:
                print(f"{name}: not measured: {why}")
            return
        self.measured += 1
        self.total = self.total.add(fig)
        if not users:
            self.own, self.owns = self.own.add(fig), self.owns + 1
        self.per_program[name] = figures_json(fig)
        if not quiet or fig.redundant or fig.unordered or fig.insertions:
            print(line(name, fig) + (" (the user's deps= too)" if users else ""))


def _keeps(kind: str):
    def still(cand: P.Program) -> bool:
        if writes_dependencies(cand):
            return False
        fig, _ = program_figures(cand)
        return fig is not None and bool(fig.redundant if kind == "redundant"
                                        else any(not u[2] for u in fig.unordered))
    return still


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="lean_run", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    f = sub.add_parser("files")
    f.add_argument("paths", nargs="*", type=Path)
    c = sub.add_parser("ifchain")
    c.add_argument("--k", type=int, nargs="+", default=[2, 4, 8, 16])
    gp = sub.add_parser("gen")
    gp.add_argument("--seed", type=int, default=1)
    gp.add_argument("--count", type=int, default=100)
    g = sub.add_parser("grammar")
    g.add_argument("grammar", choices=("tensors", "surface") + tuple(k for k in cli.GRAMMARS
                                                           if k not in ("scalars", "printed", "printed-scalars")))
    g.add_argument("--seconds", type=float, default=60.0)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--exhaustive", action="store_true")
    g.add_argument("--size", type=int, default=2)
    g.add_argument("--max-atoms", type=int, default=None)
    g.add_argument("--max-programs", type=int, default=None)
    g.add_argument("--shrink-seconds", type=float, default=60.0)
    g.add_argument("--max-shrink", type=int, default=4, help="programs shrunk per kind (the first ones)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.what == "grammar" and not args.exhaustive and args.grammar not in ("tensors", "surface") \
            and not hasattr(cli.GRAMMARS[args.grammar], "generate"):
        ap.error(f"the {args.grammar} grammar has no random programs: give --exhaustive --size K")
    tally = Tally()
    if args.what == "ifchain":
        for split in (True, False):
            for readers in ("independent", "chained"):
                for k in args.k:
                    for n in ((k // 2, k) if split else (0, 1)):
                        fig, why = if_chain_figures(k, readers, n, split)
                        name = f"if chain k={k} {readers} {'split' if split else 'alternating'} n={n}"
                        tally.add(name, fig, why, quiet=False)
        return 0
    if args.what == "gen":
        wd = Path(tempfile.mkdtemp(prefix="attack-lean-gen-"))
        try:
            for name, src, users in gen_sources(args.seed, args.count):
                path = wd / f"{name}.py"
                path.write_text(src)
                fig, why = file_figures(path)
                tally.add(name, fig, why, users)
                if fig is not None and not users and fig.redundant:
                    for r in fig.redundant:
                        print(f"    redundant: {r[4]}")
                    if args.out is not None:
                        (args.out / "gen").mkdir(parents=True, exist_ok=True)
                        (args.out / "gen" / f"{name}.py").write_text(f"# {line(name, fig)}\n" + src)
        finally:
            shutil.rmtree(wd, ignore_errors=True)
    elif args.what == "files":
        for path in args.paths or corpus():
            fig, why = file_figures(path)
            name = str(path.relative_to(REPO)) if path.is_absolute() and REPO in path.parents else str(path)
            tally.add(name, fig, why, quiet=False)
            for r in fig.redundant if fig is not None else ():
                print(f"    redundant{' (inside)' if r[3] else ''}: {r[4]}")
    else:
        deadline = time.monotonic() + args.seconds
        for name, prog in programs(args):
            if (not args.exhaustive and time.monotonic() > deadline) or (
                    args.max_programs is not None and tally.measured + len(tally.skipped) >= args.max_programs):
                break
            fig, why = program_figures(prog)
            users = writes_dependencies(prog)
            tally.add(name, fig, why, users)
            if fig is not None and not users and (fig.redundant or any(not u[2] for u in fig.unordered)):
                tally.flagged.append((name, prog, fig))
    print(line(f"TOTAL of {tally.measured} programs ({len(tally.skipped)} not measured)", tally.total))
    if args.what in ("grammar", "gen"):
        print(line(f"TOTAL of the {tally.owns} programs with no deps= (every insertion the compiler's)", tally.own))
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        shrunk = {"unordered": 0, "redundant": 0}
        for name, prog, fig in tally.flagged:
            for kind in ("unordered", "redundant"):
                if shrunk[kind] < args.max_shrink and _keeps(kind)(prog):
                    shrunk[kind] += 1
                    small = shrink.shrink(prog, _keeps(kind), args.shrink_seconds)
                    small_fig, _ = program_figures(small)
                    d = args.out / kind
                    d.mkdir(exist_ok=True)
                    if small_fig is None:        # (a shrink the tester cannot run: the program as found)
                        small, small_fig = prog, fig
                    head = "".join(f"# {t}\n" for t in (line(name, fig), "shrunk: " + line(name, small_fig)))
                    (d / f"{name}.py").write_text(head + P.render(small).source)
        (args.out / "summary.json").write_text(json.dumps(
            {"total": figures_json(tally.total), "programs": tally.measured,
             "compiler's": {"programs": tally.owns, **figures_json(tally.own)}, "not measured": tally.skipped,
             "flagged": [n for n, _, _ in tally.flagged], "per program": tally.per_program}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
