"""Benchmark of ``--dump-all`` against the plain compile, on large programs.

    python -m nanopass.tools.bench_report [--sizes 200,2000] [--repeat 3] [--keep DIR]

For each size N it writes ``report_programs.layered(N)`` (N kernel calls) to a file and times,
each in a fresh process as a user runs them, ``nanopass run FILE -q`` (the plain compile) and
``nanopass run FILE --dump-all DIR -q``; it prints the best and mean wall-clock seconds of each,
their ratio (best to best: the target is at most 10), the CPU seconds of the report run (its
processes and the Graphviz ones it started, which run side by side on the machine's cores), the
size of ``index.html`` (what a browser loads first) and of the whole dump, and how many
pictures were drawn. ``--keep DIR`` leaves each size's dump in ``DIR/N`` to open.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from .report_programs import layered


def _timed(args: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "nanopass", *args], capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"nanopass {' '.join(args)} failed:\n{done.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _size(directory: str) -> int:
    return sum(os.path.getsize(os.path.join(directory, n)) for n in os.listdir(directory))


def measure(size: int, repeat: int, keep: str | None = None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, f"layered_{size}.py")
        with open(source, "w", encoding="utf-8") as handle:
            handle.write(layered(size))
        dump = os.path.join(keep, str(size)) if keep else os.path.join(tmp, "dump")
        if keep and os.path.isdir(dump):
            shutil.rmtree(dump)
        plain, report, cpu = [], [], []
        for _ in range(repeat):  # interleaved, so that a slow spell of the host spoils one of each
            plain.append(_timed(["run", source, "-q"])[0])
            wall, seconds = _timed(["run", source, "--dump-all", dump, "-q"])
            report.append(wall)
            cpu.append(seconds)
        return {
            "size": size,
            "plain": min(plain), "plain_mean": statistics.fmean(plain),
            "report": min(report), "report_mean": statistics.fmean(report),
            "cpu": min(cpu),
            "ratio": min(report) / min(plain),
            "page": os.path.getsize(os.path.join(dump, "index.html")),
            "dump": _size(dump),
            "pictures": sum(1 for n in os.listdir(dump) if n.endswith(".svg")),
        }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="200,2000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", metavar="DIR", help="leave each size's dump in DIR/N")
    args = parser.parse_args(argv)
    header = (f"{'N':>6}{'plain s':>9}{'(mean)':>8}{'report s':>10}{'(mean)':>8}{'ratio':>7}{'CPU s':>8}"
              f"{'page KiB':>10}{'dump MiB':>10}{'pictures':>9}")
    print(header)
    print("-" * len(header))
    for size in (int(s) for s in args.sizes.split(",")):
        r = measure(size, args.repeat, args.keep)
        print(f"{r['size']:>6}{r['plain']:>9.2f}{r['plain_mean']:>8.2f}{r['report']:>10.2f}{r['report_mean']:>8.2f}"
              f"{r['ratio']:>7.1f}{r['cpu']:>8.1f}{r['page'] / 1024:>10.1f}{r['dump'] / 2**20:>10.1f}{r['pictures']:>9}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
