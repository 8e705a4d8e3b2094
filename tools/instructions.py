"""Instructions executed by each phase of a compile, counted by valgrind's callgrind.

    python -m nanopass.tools.instructions FILE.py [FILE.py ...] [--cold] [--cache]

Prints, per file, the instructions (in millions) of ``ast.parse`` on the file's source (the
floor), of loading the file, of the front end, of each pass (its body and the verification of
its output apart) and of the printer, then their total and its ratio to the floor. With two
files it also prints how much each phase grew from the first to the second.

Unlike seconds, instruction counts repeat exactly for the same code and input whatever else the
machine does (the compile runs with ``PYTHONHASHSEED=0``: string hashes decide the orders of sets
and dicts, and with them a few percent of a pass's count): the figure to compare two versions of a pass by, or to see whether a phase grows
faster than the program. They leave out what the memory hierarchy adds (a large program's
misses and page faults), which ``tools/bench.py`` measures. The compile is warm (a first compile
of the same file ran before, so that code generated on first use is left out); ``--cold`` counts
the first compile instead.

``--cache`` has callgrind simulate the caches as well (a first level of 48 KiB and a last level
of 4 MiB, this host's L1d and L2 per core; a run takes about twice as long) and prints, per
phase, the misses per thousand instructions at each level and the estimated cycles (callgrind's
model: an instruction a cycle, 10 more per first-level miss, 100 per last-level miss) against
``ast.parse``'s: whether a phase loses more time to memory than the floor does.

Needs ``valgrind`` with its headers (``valgrind/callgrind.h``) and ``gcc``: a small helper
library that issues callgrind's client requests is built in a temporary directory.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HELPER = r"""
#include <valgrind/callgrind.h>
void np_start(void) { CALLGRIND_START_INSTRUMENTATION; }
void np_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }
void np_zero(void) { CALLGRIND_ZERO_STATS; }
void np_dump(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
"""


def measured_compile(path: str, helper: str, cold: bool) -> None:
    """Runs inside valgrind: a compile of ``path`` with a callgrind dump after each phase."""
    import ast
    import ctypes
    import gc

    from nanopass.api import collector_paused, surface_of
    from nanopass.language import Language
    from nanopass.languages.statements import reusing_walks
    from nanopass.loader import load_programs
    from nanopass.passes.pipeline import PASSES, PIPELINE
    from nanopass.printer.cpp import print_cpp
    from nanopass.rewrite import PassContext
    from nanopass.tools.bench import compile_once

    sys.setrecursionlimit(100000)
    if not cold:
        compile_once(path)
    lib = ctypes.CDLL(helper)
    lib.np_dump.argtypes = [ctypes.c_char_p]
    with open(path) as handle:
        source = handle.read()
    current = [PASSES[0].name]
    verify = Language.verify

    def dump(name: str) -> None:
        lib.np_dump(name.encode())

    def verifying(language, tree, known=frozenset(), inherited=frozenset()):
        dump("body:" + current[0])
        out = verify(language, tree, known, inherited)
        dump("verify:" + current[0])
        return out

    def observer(stage) -> None:
        if stage.index < len(PASSES):
            current[0] = PASSES[stage.index].name

    gc.collect()
    lib.np_start()
    with collector_paused():
        lib.np_zero()
        ast.parse(source)
        dump("floor")
        lib.np_zero()
        program = load_programs(path)[0]
        dump("load")
        tree = surface_of(program)
        dump("front end")
        Language.verify = verifying
        try:
            with reusing_walks():
                stages = PIPELINE.run(tree, PassContext(), input_name="parse_dsl", observer=observer)
        finally:
            Language.verify = verify
        lib.np_zero()
        print_cpp(stages[-1].tree, "seed")
        dump("printer")
    lib.np_stop()


CACHES = ["--cache-sim=yes", "--I1=32768,8,64", "--D1=49152,12,64", "--LL=4194304,16,64"]


def count(path: str, helper: str, cold: bool, cache: bool = False) -> dict[str, int]:
    """phase -> instructions, for one compile of ``path`` (run under callgrind); with ``cache``,
    phase -> {event: count} for every event of callgrind's cache model (``Ir``, ``D1mr``, ...)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        code = f"from nanopass.tools.instructions import measured_compile; measured_compile({path!r}, {helper!r}, {cold!r})"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no", *(CACHES if cache else []),
             f"--callgrind-out-file={out}", sys.executable, "-c", code],
            capture_output=True, text=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},  # (string hashes decide set and dict orders, so counts)
        )
        if done.returncode != 0:
            raise RuntimeError(f"the measured compile of {path} failed:\n{done.stderr[-2000:]}")
        counts: dict = {}
        for name in os.listdir(tmp):
            if not name.startswith("callgrind.out."):
                continue
            phase = events = totals = None
            with open(os.path.join(tmp, name)) as handle:
                for line in handle:
                    if line.startswith("desc: Trigger: Client Request: "):
                        phase = line.split("Client Request: ", 1)[1].strip()
                    elif line.startswith("events:"):
                        events = line.split()[1:]
                    elif line.startswith("summary:"):
                        totals = [int(v) for v in line.split()[1:]]
            if phase is None or totals is None:
                continue
            if cache:
                phase_counts = counts.setdefault(phase, {})
                for event, total in zip(events, totals):
                    phase_counts[event] = phase_counts.get(event, 0) + total
            else:
                counts[phase] = counts.get(phase, 0) + totals[0]
        return counts


def cache_report(files: list[str], results: list[dict[str, dict[str, int]]]) -> str:
    """Per file, the compile's phases by cache behaviour: misses per thousand instructions at
    the first level (data reads and writes, and instruction fetches) and at the last level, and
    estimated cycles per instruction; then the compile's estimated cycles against the floor's."""

    def figures(events: dict[str, int]) -> tuple[int, float, float, float, float]:
        ir = events.get("Ir", 0)
        first = sum(events.get(e, 0) for e in ("I1mr", "D1mr", "D1mw"))
        last = sum(events.get(e, 0) for e in ("ILmr", "DLmr", "DLmw"))
        cycles = ir + 10 * first + 100 * last
        per_k = 1000 / ir if ir else 0.0
        return ir, first * per_k, last * per_k, cycles / ir if ir else 0.0, cycles

    lines = []
    for path, counts in zip(files, results):
        lines.append(f"{os.path.basename(path)}")
        lines.append(f"  {'phase':<24}{'Ir (M)':>10}{'L1 miss/kIr':>13}{'LL miss/kIr':>13}{'cycles/Ir':>11}")
        compile_events: dict[str, int] = {}
        for phase in ("load", "front end", "passes", "verification", "printer"):
            if phase == "passes":
                parts = [v for k, v in counts.items() if k.startswith("body:")]
            elif phase == "verification":
                parts = [v for k, v in counts.items() if k.startswith("verify:")]
            else:
                parts = [counts.get(phase, {})]
            events: dict[str, int] = {}
            for part in parts:
                for event, value in part.items():
                    events[event] = events.get(event, 0) + value
                    compile_events[event] = compile_events.get(event, 0) + value
            ir, first, last, cpi, _ = figures(events)
            lines.append(f"  {phase:<24}{ir / 1e6:>10.1f}{first:>13.2f}{last:>13.3f}{cpi:>11.3f}")
        for phase, events in (("compile", compile_events), ("ast.parse (the floor)", counts["floor"])):
            ir, first, last, cpi, _ = figures(events)
            lines.append(f"  {phase:<24}{ir / 1e6:>10.1f}{first:>13.2f}{last:>13.3f}{cpi:>11.3f}")
        compiled, floor = figures(compile_events), figures(counts["floor"])
        lines.append(f"{os.path.basename(path)}: the compile takes {compiled[0] / floor[0]:.2f}x the floor's instructions, "
                     f"{compiled[4] / floor[4]:.2f}x its estimated cycles")
    return "\n".join(lines)


def report(files: list[str], results: list[dict[str, int]]) -> str:
    from nanopass.passes.pipeline import PASSES

    phases = ["load", "front end", *(p.name for p in PASSES), "printer"]

    def of(counts: dict[str, int], phase: str) -> tuple[int, int]:
        if phase in ("load", "front end", "printer"):
            return counts.get(phase, 0), 0
        return counts.get("body:" + phase, 0), counts.get("verify:" + phase, 0)

    names = [os.path.basename(f) for f in files]
    lines = [f"{'phase (millions)':<36}" + "".join(f"{n[:20]:>22}" for n in names) + ("  growth" if len(files) == 2 else "")]
    totals = [sum(v for k, v in c.items() if k != "floor") for c in results]
    for phase in phases:
        cells, sums = [], []
        for counts in results:
            body, verified = of(counts, phase)
            sums.append(body + verified)
            cells.append(f"{body / 1e6:>12.1f}" + (f" +{verified / 1e6:>7.1f}" if verified else " " * 9))
        if max(sums) < 0.002 * max(totals):
            continue  # a pass with (almost) nothing to do here
        growth = f"  {sums[1] / sums[0]:.2f}x" if len(files) == 2 and sums[0] else ""
        lines.append(f"{phase:<36}" + "".join(f"{c:>22}" for c in cells) + growth)
    lines.append("(a pass's second figure: verifying its output)")
    lines.append(f"{'total':<36}" + "".join(f"{t / 1e6:>22.1f}" for t in totals)
                 + (f"  {totals[1] / totals[0]:.2f}x" if len(files) == 2 else ""))
    lines.append(f"{'ast.parse (the floor)':<36}" + "".join(f"{c['floor'] / 1e6:>22.1f}" for c in results))
    lines.append(f"{'total / floor':<36}" + "".join(f"{t / c['floor']:>22.2f}" for t, c in zip(totals, results)))
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--cold", action="store_true", help="count the first compile in the process")
    parser.add_argument("--cache", action="store_true", help="simulate the caches too and print the misses per phase")
    args = parser.parse_args(argv)
    missing = [tool for tool in ("valgrind", "gcc") if shutil.which(tool) is None]
    if missing:
        print(f"instructions: needs {' and '.join(missing)} on PATH", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        source, helper = os.path.join(tmp, "helper.c"), os.path.join(tmp, "libhelper.so")
        with open(source, "w") as handle:
            handle.write(HELPER)
        built = subprocess.run(["gcc", "-shared", "-fPIC", "-O0", "-o", helper, source], capture_output=True, text=True)
        if built.returncode != 0:
            print(f"instructions: cannot build the callgrind helper (valgrind's headers?):\n{built.stderr}", file=sys.stderr)
            return 2
        results = [count(os.path.abspath(f), helper, args.cold, args.cache) for f in args.files]
    if args.cache:
        print(report(args.files, [{phase: events["Ir"] for phase, events in r.items()} for r in results]))
        print(cache_report(args.files, results))
    else:
        print(report(args.files, results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
