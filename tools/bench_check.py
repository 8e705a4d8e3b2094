"""Check benchmark: the seconds and peak memory of each phase of ``nanopass check`` on the bench's shapes.

    python -m nanopass.tools.bench_check [--shape nested] [--sizes 250,1000] [--set n=2 ...]

For each size, in a fresh process, this writes the shape's program (``tools/bench.py``), compiles
it and checks it on the ``--set`` values as ``nanopass check`` does (``check_stages``), and prints
one line per phase: the compile, each interpreter run (named by its stage, or ``as written``),
each runtime model, the refinement of the program's own trace by the reference (its models and
hazard pairs are listed under it, indented), each trace comparison, the hazard checker, the values
(the program as written, run and compared) and the report lines. ``s`` is the phase's CPU seconds
(``time.process_time``: other load on a shared machine does not count), ``peak MB`` the highest
resident memory of the process during the phase (``VmHWM``, reset at the start of each phase
through ``/proc/self/clear_refs``; Linux), so the phase that sets the check's peak stands out.
The last line per size gives the whole check's CPU seconds, its peak memory and the task count.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager


def _high_water_kb() -> int:
    with open("/proc/self/status") as status:
        return int(re.search(r"VmHWM:\s+(\d+)", status.read()).group(1))


def _reset_high_water() -> None:
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")


class Phases:
    """Timed, possibly nested phases; each phase's peak folds in the peaks of the phases inside it."""

    def __init__(self):
        self.rows: list[dict] = []
        self.open: list[dict] = []
        self.wrapped: list[tuple] = []  # (module, attribute, original)

    def _fold_high_water(self) -> None:
        high = _high_water_kb()
        for row in self.open:
            row["peak_kb"] = max(row["peak_kb"], high)

    @contextmanager
    def phase(self, name: str):
        self._fold_high_water()
        _reset_high_water()
        row = {"phase": name, "depth": len(self.open), "peak_kb": 0}
        self.rows.append(row)
        self.open.append(row)
        start = time.process_time()
        try:
            yield
        finally:
            row["seconds"] = time.process_time() - start
            self._fold_high_water()
            self.open.pop()

    def wrap(self, module, attribute: str, name_of) -> None:
        """Time every call of ``module.attribute`` as a phase named ``name_of(*args)``."""
        original = getattr(module, attribute)

        def timed(*args, **kwargs):
            with self.phase(name_of(*args, **kwargs)):
                return original(*args, **kwargs)

        self.wrapped.append((module, attribute, original))
        setattr(module, attribute, timed)

    def unwrap(self) -> None:
        """Put back every function ``wrap`` replaced."""
        while self.wrapped:
            module, attribute, original = self.wrapped.pop()
            setattr(module, attribute, original)


def measure(shape: str, size: int, values: dict[str, str]) -> dict:
    """The phases of one check of ``shape`` at ``size`` (in this process)."""
    from nanopass.api import run_pipeline, surface_of
    from nanopass.loader import load_programs

    from . import check
    from .bench import source_of

    phases = Phases()
    phases.wrap(check, "trace_of", lambda stage, inputs: f"interpret {stage.name}")
    phases.wrap(check, "refines", lambda before, after, names=("", ""), launches=None: f"refinement ({names[0]} by {names[1]})")
    phases.wrap(check, "compare", lambda a, b, names=("", ""), *rest, **kw: f"compare {names[0]} with {names[1]}")
    phases.wrap(check, "model", lambda trace: "runtime model")
    phases.wrap(check, "find_hazards", lambda trace, runtime=None, **kw: "hazards")
    phases.wrap(check, "against_written", lambda emission, written, inputs: "values (run as written, compare)")
    phases.wrap(check, "written_program", lambda *args, **kw: "compile the program as written")
    phases.wrap(check, "compare_values", lambda *args, **kw: "compare values")
    total_start = time.process_time()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, f"{shape}{size}.py")
            with open(path, "w") as handle:
                handle.write(source_of(shape, size))
            with phases.phase("compile"):
                program = load_programs(path)[0]
                stages = run_pipeline(program)
        surface = surface_of(program, None)
        with phases.phase("check"):
            result = check.check_stages(stages, check.program_inputs(surface, values))
            with phases.phase("report lines"):
                result.lines()
    finally:
        phases.unwrap()
    total = time.process_time() - total_start
    return {"shape": shape, "size": size, "phases": phases.rows, "seconds": total,
            "peak_kb": max(row["peak_kb"] for row in phases.rows), "tasks": len(result.reference.tasks()),
            "hazards": len(result.failing)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nanopass.tools.bench_check", description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", default="nested")
    parser.add_argument("--sizes", default="250,1000")
    parser.add_argument("--set", dest="values", action="append", default=[], metavar="NAME=VALUE",
                        help="a scalar parameter's value (default: n=2)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # (a child: one size, JSON out)
    args = parser.parse_args(argv)
    values = dict(v.split("=", 1) for v in args.values) or {"n": "2"}
    sys.setrecursionlimit(100000)
    if args.one:
        print(json.dumps(measure(args.shape, int(args.sizes), values)))
        return 0
    for size in (int(s) for s in args.sizes.split(",")):
        command = [sys.executable, "-m", "nanopass.tools.bench_check", "--one", "--shape", args.shape, "--sizes", str(size)]
        command += [f"--set={name}={value}" for name, value in values.items()]
        figures = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
        print(f"{args.shape} N={size} ({', '.join(f'{k}={v}' for k, v in values.items())}): {figures['tasks']} tasks, "
              f"{figures['hazards']} hazards")
        print(f"  {'phase':<58}{'s':>9}{'peak MB':>10}")
        for row in figures["phases"]:
            label = "  " * row["depth"] + row["phase"]
            print(f"  {label:<58}{row['seconds']:>9.2f}{row['peak_kb'] / 1024:>10.0f}")
        print(f"  {'total':<58}{figures['seconds']:>9.2f}{figures['peak_kb'] / 1024:>10.0f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
