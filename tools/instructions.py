"""Instructions executed by each phase of a compile, counted by valgrind's callgrind.

    python -m nanopass.tools.instructions FILE.py [FILE.py ...] [--cold]

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


def count(path: str, helper: str, cold: bool) -> dict[str, int]:
    """phase -> instructions, for one compile of ``path`` (run under callgrind)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        code = f"from nanopass.tools.instructions import measured_compile; measured_compile({path!r}, {helper!r}, {cold!r})"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}", sys.executable, "-c", code],
            capture_output=True, text=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},  # (string hashes decide set and dict orders, so counts)
        )
        if done.returncode != 0:
            raise RuntimeError(f"the measured compile of {path} failed:\n{done.stderr[-2000:]}")
        counts: dict[str, int] = {}
        for name in os.listdir(tmp):
            if not name.startswith("callgrind.out."):
                continue
            phase = total = None
            with open(os.path.join(tmp, name)) as handle:
                for line in handle:
                    if line.startswith("desc: Trigger: Client Request: "):
                        phase = line.split("Client Request: ", 1)[1].strip()
                    elif line.startswith("summary:"):
                        total = int(line.split()[1])
            if phase is not None and total is not None:
                counts[phase] = counts.get(phase, 0) + total
        return counts


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
        results = [count(os.path.abspath(f), helper, args.cold) for f in args.files]
    print(report(args.files, results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
