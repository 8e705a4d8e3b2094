"""Which phases of a compile grow faster than the program: generated programs at two sizes.

    python -m nanopass.tools.scale_hunt [--generator attack|surface|SHAPE] [--sizes 80,320]
        [--seeds 0:6] [--no-assembles] [--top 15] [--fail-above GROWTH]

Compiles each seed's program at the small and the large size, adds up each phase's CPU seconds
(loading, the front end, every pass, the printer) and its programs' source lines per size, and
prints, for each phase, the seconds per thousand lines at both sizes and their ratio: the
*growth*, 1.0 for a phase linear in the program, 4.0 for one quadratic when the sizes are four
times apart. Phases are listed by growth, the largest first, after dropping those below 0.5 %
of the total (noise). The bench's shapes are regular; the adversarial tester's generators
(``attack``: its random programs; ``surface``: with the DSL's surface constructs) make the
irregular programs users write, which is where a pass quadratic in some construct shows (three
were found so: a placement through an ``if`` walking the whole function per placement, a
fixpoint iterated per link of a chain of ``if`` results, the lean passes' walks).

``--no-assembles`` drops the generators' ``pl.assemble`` statements: a random program refuses
some of them, and a refused program is left out of both sizes. ``--fail-above G`` exits 1 when a
phase grows more than ``G`` (a check to run before a change lands: a phase at 1.4 with sizes
four apart is worth a look, at 3 it is quadratic). A program that the compiler refuses at either
size counts at neither; the count is printed.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
import time

GENERATORS = ("attack", "surface")


def source(generator: str, seed: int, size: int, no_assembles: bool) -> str:
    """The program of ``generator`` (a tester generator or a bench shape) for ``seed`` and ``size``."""
    if generator not in GENERATORS:
        from nanopass.tools.bench import source_of

        return source_of(generator, size)
    from nanopass.tools.attack import program as P
    from nanopass.tools.attack.generate import generate as attack
    from nanopass.tools.attack.surface_generate import generate as surface

    prog = (attack if generator == "attack" else surface)(seed, size)
    if no_assembles:
        prog = dataclasses.replace(prog, body=P.without_assembles(prog.body))
    return P.render(prog).source


def phase_seconds(path: str) -> dict[str, float] | None:
    """CPU seconds of each phase of a compile of ``path``'s orchestration function ``orch`` (the
    generators' and the bench shapes' name for it), or None when the compiler refuses it."""
    from nanopass.api import collector_paused, result_from_stages, run_pipeline
    from nanopass.errors import UserError
    from nanopass.loader import load_programs
    from nanopass.pipeline import PipelineError

    with collector_paused():
        try:
            start = time.process_time()
            program = load_programs(path)[0]
            loaded = time.process_time()
            stages = run_pipeline(program, "orch")
            ran = time.process_time()
            result_from_stages(stages)
            printed = time.process_time()
        except (UserError, PipelineError):
            return None
    out = {"load": loaded - start}
    out.update((stage.name, stage.seconds) for stage in stages)
    out["print_cpp"] = printed - ran
    return out


@dataclasses.dataclass
class Tally:
    lines: int = 0
    seconds: dict = dataclasses.field(default_factory=dict)

    def add(self, text: str, phases: dict[str, float]) -> None:
        self.lines += text.count("\n")
        for name, value in phases.items():
            self.seconds[name] = self.seconds.get(name, 0.0) + value


def hunt(generator: str, sizes: tuple[int, int], seeds: range, no_assembles: bool) -> tuple[Tally, Tally, int]:
    """The two sizes' tallies over the seeds whose programs compile at both; the refused count."""
    small, large = Tally(), Tally()
    refused = 0
    with tempfile.TemporaryDirectory() as tmp:
        warm = os.path.join(tmp, "warm.py")
        with open(warm, "w") as handle:  # (code run the first time, imports: not the program's)
            handle.write(source(generator, seeds.start, sizes[0], no_assembles))
        phase_seconds(warm)
        for seed in seeds:
            texts, phases = [], []
            for size in sizes:
                text = source(generator, seed, size, no_assembles)
                path = os.path.join(tmp, f"p{seed}_{size}.py")
                with open(path, "w") as handle:
                    handle.write(text)
                texts.append(text)
                phases.append(phase_seconds(path))
            if None in phases:
                refused += 1
                continue
            small.add(texts[0], phases[0])
            large.add(texts[1], phases[1])
    return small, large, refused


def growth_rows(small: Tally, large: Tally) -> list[tuple[float, str, float, float]]:
    """(growth, phase, ms per 1000 lines small, large) for each phase above 0.5 % of the total,
    the largest growth first."""
    total = sum(large.seconds.values()) or 1.0
    rows = []
    for name, seconds in large.seconds.items():
        if seconds < 0.005 * total:
            continue
        a = 1e6 * small.seconds.get(name, 0.0) / max(small.lines, 1)
        b = 1e6 * seconds / max(large.lines, 1)
        rows.append((b / a if a else float("inf"), name, a, b))
    rows.sort(key=lambda row: (-row[0], row[1]))
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--generator", default="attack", help="attack, surface or a bench shape (default attack)")
    parser.add_argument("--sizes", default="80,320", help="the small and the large size (default 80,320)")
    parser.add_argument("--seeds", default="0:6", help="FIRST:LAST (LAST excluded; default 0:6)")
    parser.add_argument("--no-assembles", action="store_true", help="drop the generators' pl.assemble statements")
    parser.add_argument("--top", type=int, default=15, help="phases to list (default 15)")
    parser.add_argument("--fail-above", type=float, default=None, help="exit 1 when a phase grows more than this")
    args = parser.parse_args(argv)
    from nanopass.tools.bench import SHAPES

    if args.generator not in GENERATORS and args.generator not in SHAPES:
        parser.error(f"unknown generator {args.generator!r}: {', '.join(GENERATORS + tuple(SHAPES))}")
    try:
        a, b = (int(s) for s in args.sizes.split(","))
        first, last = (int(s) for s in args.seeds.split(":"))
    except ValueError:
        parser.error("--sizes takes two sizes, SMALL,LARGE; --seeds takes FIRST:LAST")
    if not 0 < a < b:
        parser.error("--sizes: 0 < SMALL < LARGE")
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 100000))
    seeds = range(first, last) if args.generator in GENERATORS else range(1)
    small, large, refused = hunt(args.generator, (a, b), seeds, args.no_assembles)
    if not large.lines:
        print(f"scale_hunt: every program was refused ({refused}); nothing to compare", file=sys.stderr)
        return 2
    print(f"{args.generator}, {len(seeds) - refused} programs ({refused} refused): "
          f"{small.lines} lines at size {a}, {large.lines} at size {b}")
    print(f"{'phase':<42}{'ms/kline ' + str(a):>16}{'ms/kline ' + str(b):>16}{'growth':>9}")
    rows = growth_rows(small, large)
    for g, name, x, y in rows[: args.top]:
        print(f"{name:<42}{x:>16.1f}{y:>16.1f}{g:>8.2f}x")
    total_a = 1e6 * sum(small.seconds.values()) / small.lines
    total_b = 1e6 * sum(large.seconds.values()) / large.lines
    print(f"{'total':<42}{total_a:>16.1f}{total_b:>16.1f}{total_b / total_a:>8.2f}x")
    if args.fail_above is not None:
        over = [name for g, name, _, _ in rows if g > args.fail_above]
        if over:
            print(f"scale_hunt: growing more than {args.fail_above}x: {', '.join(over)}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
