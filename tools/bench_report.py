"""Benchmark of ``--dump-all`` against the plain compile, on large programs.

    python -m nanopass.tools.bench_report [--sizes 200,2000] [--repeat 3] [--keep DIR]

For each size N it writes ``report_programs.layered(N)`` (N kernel calls) to a file and times,
each in a fresh process as a user runs them, ``nanopass run FILE -q`` (the plain compile) and
``nanopass run FILE --dump-all DIR -q``; it prints the best and mean wall-clock seconds of each,
their ratio (best to best: the target is at most 10), the CPU seconds of each (the report run's
count its worker processes and the Graphviz ones it started, which run side by side on the
machine's cores) and their ratio, which a machine busy with other work changes less than the
wall-clock one, the size of ``index.html`` (what a browser loads first) and of the whole dump,
and how many pictures were drawn. The load average before and after is printed too: on a busy
machine the wall-clock figures say little. ``--keep DIR`` leaves each size's dump in ``DIR/N``
to open. ``--open`` also opens the report in headless Chromium (``chromium`` on PATH), once
alone and once with the stage of ``order_write_after_read`` open (its task and instance graphs
drawn, its statement pairs shown), and prints the milliseconds the page itself reports in
``#render-status`` (from the start of navigation until what is open is on screen).
"""

from __future__ import annotations

import argparse
import glob
import os
import re
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


def measure(size: int, repeat: int, keep: str | None = None, opening: bool = False) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, f"layered_{size}.py")
        with open(source, "w", encoding="utf-8") as handle:
            handle.write(layered(size))
        dump = os.path.join(keep, str(size)) if keep else os.path.join(tmp, "dump")
        if keep and os.path.isdir(dump):
            shutil.rmtree(dump)
        plain, plain_cpu, report, cpu = [], [], [], []
        for _ in range(repeat):  # interleaved, so that a slow spell of the host spoils one of each
            wall, seconds = _timed(["run", source, "-q"])
            plain.append(wall)
            plain_cpu.append(seconds)
            wall, seconds = _timed(["run", source, "--dump-all", dump, "-q"])
            report.append(wall)
            cpu.append(seconds)
        return {
            "size": size,
            "plain": min(plain), "plain_mean": statistics.fmean(plain),
            "report": min(report), "report_mean": statistics.fmean(report),
            "cpu": min(cpu), "plain_cpu": min(plain_cpu),
            "ratio": min(report) / min(plain), "cpu_ratio": min(cpu) / min(plain_cpu),
            "page": os.path.getsize(os.path.join(dump, "index.html")),
            "dump": _size(dump),
            "pictures": sum(1 for n in os.listdir(dump) if n.endswith(".svg")),
            "open": open_times(dump, tmp) if opening else None,
        }


CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--dump-dom"]


def open_times(dump: str, scratch: str) -> tuple[int, int]:
    """(ms until the page alone is on screen, ms until the order_write_after_read stage is), as the
    page reports them in ``#render-status``."""
    page = os.path.join(os.path.abspath(dump), "index.html")
    [war] = glob.glob(os.path.join(dump, "*_order_write_after_read.stage.js"))
    stage = os.path.basename(war).split("_", 1)[0]
    return _page_ms("file://" + page, scratch), _page_ms(f"file://{page}#stage-{stage}", scratch)


def _page_ms(url: str, scratch: str) -> int:
    done = subprocess.run([shutil.which("chromium") or "chromium", *CHROMIUM_FLAGS,
                           f"--user-data-dir={os.path.join(scratch, 'profile')}", url],
                          capture_output=True, text=True, timeout=300)
    found = re.search(r'<p id="render-status" data-ok="yes"[^>]*data-ms="(\d+)"', done.stdout)
    if not found:
        raise RuntimeError(f"the page did not report itself on screen: {done.stderr[-500:]}")
    return int(found.group(1))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="200,2000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", metavar="DIR", help="leave each size's dump in DIR/N")
    parser.add_argument("--open", action="store_true", help="time opening the report in headless Chromium")
    args = parser.parse_args(argv)
    if args.open and not shutil.which("chromium"):
        parser.error("--open needs chromium on PATH")
    header = (f"{'N':>6}{'plain s':>9}{'(mean)':>8}{'report s':>10}{'(mean)':>8}{'ratio':>7}{'CPU s':>8}{'plain':>7}"
              f"{'ratio':>7}{'page KiB':>10}{'dump MiB':>10}{'pictures':>9}")
    print(f"load average {_load()}")
    print(header)
    print("-" * len(header))
    for size in (int(s) for s in args.sizes.split(",")):
        r = measure(size, args.repeat, args.keep, args.open)
        print(f"{r['size']:>6}{r['plain']:>9.2f}{r['plain_mean']:>8.2f}{r['report']:>10.2f}{r['report_mean']:>8.2f}"
              f"{r['ratio']:>7.1f}{r['cpu']:>8.1f}{r['plain_cpu']:>7.2f}{r['cpu_ratio']:>7.1f}{r['page'] / 1024:>10.1f}"
              f"{r['dump'] / 2**20:>10.1f}{r['pictures']:>9}", flush=True)
        if r["open"]:
            print(f"{'':>6}opened in Chromium: the page alone in {r['open'][0]} ms, with the "
                  f"order_write_after_read stage in {r['open'][1]} ms", flush=True)
    print(f"load average {_load()}")
    return 0


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"
    except OSError:
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
