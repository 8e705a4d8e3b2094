"""Compile-time benchmark: generated programs of nine shapes and growing sizes.

    python -m nanopass.tools.bench [--shapes straight,nested,phases,branches,tiles,scopes,mixed,assembles,reuses]
                                   [--sizes 1000,4000,16000]
                                   [--repeat 5] [--per-pass] [--json FILE]

For each shape and size it prints the end-to-end compile time (front end + passes + printer,
the best and the mean of ``--repeat`` rounds of runs (a smaller size runs more often a round: ``runs_per_round``), each in a fresh process with the compiler's modules
already imported; the runs go in rounds over every shape and size, so that a slow spell of the host spoils one run of
each rather than every run of one),
the time Python's ``ast.parse`` takes on the same source in the same process just before and after
the compile (the floor: any front end must read its input), their ratio (the median of the runs'
ratios: both figures of a run are measured under the same conditions), the peak memory of the compile, the
source and output sizes, and with ``--per-pass`` the CPU seconds of every pass (``Stage.seconds``: the thread's, ``time.thread_time``).

Times are CPU seconds of the process (``time.process_time``), so other load on a shared machine
does not count; ``ast.parse`` runs with the cyclic collector paused, as the compiler does, which
makes the floor the strictest one. Peak memory is the process's ``VmHWM`` (Linux).

Shapes (N = size):
- ``straight``: N kernel calls, each writing a tensor created for it from the previous one;
- ``nested``: N kernel calls spread over depth-4 loop nests (4 calls per innermost body);
- ``phases``: the manual-scope phase pattern with P = N // 256 phases of 256 parallel branches
  (TaskId array carries), or ``--phases PxB`` explicitly;
- ``branches``: N kernel calls in if/else chains on a scalar parameter;
- ``tiles``: a pipeline over N tiles of one tensor parameter, each call reading a tile and
  writing the next (constant regions that the hazard analysis must tell apart);
- ``scopes``: N // 4 manual scopes in a row, each a ``pl.parallel(4)`` loop of submits chained
  by their TaskIds (every scope must wait for the one before);
- ``mixed``: N // 2 tensors made first, then N // 2 calls in loops and ifs that each use one of
  them (many names in force across many loops and branches);
- ``assembles``: N tiles, each made, written by a kernel and assembled into its own rows of one
  tensor parameter (each placed as a view of those rows: the fuse pass's prefix counts);
- ``reuses``: N // 4 tiles, each made with a fill, overwritten whole by a kernel, assembled into a
  tensor made for it, read there by a kernel, then written again and read (each placed as a
  view: the fuse pass's check that the fill is overwritten, its scan of the uses after an
  assemble, and its proof that nothing reads the rows after the second write).
- ``choices`` (not in the default table: ``--shapes choices``): N // 4 pairs of tiles, each
  made and written, one of the two chosen by an ``if`` on ``n`` and assembled into its own rows
  of one tensor parameter (each create the view where the ``if`` chooses it: the fuse pass's
  ``place_chosen``).

The table's ``mean s`` is the mean compile time over the runs, ``compile s`` the best run's. The
last line per shape gives how fast time grows against N from the smallest size to the largest,
by the mean runs and by the best runs (``growth`` says why the mean is the one to judge by), and
the same for the ratio to ``ast.parse`` (whose own time, on this host, grows a few percent faster
than its input too: a large program's memory no longer fits in the caches).
"""

from __future__ import annotations

import argparse
import ast
import gc
import importlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HEADER = '''\
import nanopass.dsl as pl


@pl.program
class Bench:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, src: pl.Tensor[[16, 16], pl.FP32], k: pl.Scalar[pl.INT64], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]{extra}) -> pl.Tensor[[16, 16], pl.FP32]:
'''


def straight(n: int) -> str:
    lines = []
    prev = "x"
    for i in range(n):
        lines.append(f"t{i} = pl.create_tensor([16, 16], dtype=pl.FP32)")
        lines.append(f"t{i} = self.step({prev}, t{i})")
        prev = f"t{i}"
    lines.append(f"y = self.acc({prev}, 0, y)")
    return _program(lines)


def nested(n: int) -> str:
    lines = []
    calls = 0
    block = 0
    while calls < n:
        lines += [
            f"for a{block} in pl.range(2):",
            f"    for b{block} in pl.range(n):",
            f"        for c{block} in pl.range(2):",
            f"            for d{block} in pl.range(3):",
        ]
        for k in range(min(4, n - calls)):
            lines.append(f"                y = self.acc(x, a{block} + b{block} * {k + 1} + c{block} - d{block}, y)")
            calls += 1
        block += 1
    return _program(lines)


def phases(p: int, b: int) -> str:
    lines = [
        "with pl.manual_scope():",
        "    prev = None",
        f"    for phase in pl.range({p}):",
        f"        for branch in pl.parallel({b}):",
        f"            y, prev = pl.submit(self.acc, x, phase * {b} + branch, y, deps=[prev])",
    ]
    return _program(lines)


def branches(n: int) -> str:
    lines = []
    for i in range(0, n, 2):
        lines += [
            f"if n > {i % 7}:",
            f"    y = self.acc(x, {i}, y)",
            "else:",
            f"    y = self.acc(x, {i + 1}, y)",
        ]
    return _program(lines)


def tiles(n: int) -> str:
    lines = ["t0 = pl.tensor.slice(big, [16, 16], [0, 0])"]
    for i in range(1, n + 1):
        lines.append(f"t{i} = pl.tensor.slice(big, [16, 16], [{16 * i}, 0])")
        lines.append(f"t{i} = self.step(t{i - 1}, t{i})")
    lines.append(f"y = self.acc(t{n}, 0, y)")
    return _program(lines, f", big: pl.InOut[pl.Tensor[[{16 * (n + 1)}, 16], pl.FP32]]")


def scopes(n: int) -> str:
    lines = []
    for s in range(max(1, n // 4)):
        lines += [
            "with pl.manual_scope():",
            "    prev = None",
            f"    for b{s} in pl.parallel(4):",
            f"        y, prev = pl.submit(self.acc, x, b{s} + {s}, y, deps=[prev])",
        ]
    return _program(lines)


def mixed(n: int) -> str:
    half = max(1, n // 2)
    lines = []
    for i in range(half):
        lines.append(f"t{i} = pl.create_tensor([16, 16], dtype=pl.FP32)")
        lines.append(f"t{i} = self.step(x, t{i})")
    for i in range(half):
        if i % 2:
            lines += [f"for i{i} in pl.range(n):", f"    y = self.acc(t{i}, i{i}, y)"]
        else:
            lines += [f"if n > {i % 5}:", f"    y = self.acc(t{i}, {i}, y)", "else:", f"    t{i} = self.step(x, t{i})"]
    return _program(lines)


def assembles(n: int) -> str:
    lines = []
    for i in range(n):
        lines.append(f"t{i} = pl.create_tensor([16, 16], dtype=pl.FP32)")
        lines.append(f"t{i} = self.step(x, t{i})")
        lines.append(f"big = pl.assemble(big, t{i}, [{16 * i}, 0])")
    lines.append("y = self.acc(x, 0, y)")
    return _program(lines, f", big: pl.InOut[pl.Tensor[[{16 * n}, 16], pl.FP32]]")


def choices(n: int) -> str:
    lines = []
    for i in range(n // 4):
        lines.append(f"t{i} = pl.create_tensor([16, 16], dtype=pl.FP32)")
        lines.append(f"t{i} = self.step(x, t{i})")
        lines.append(f"u{i} = pl.create_tensor([16, 16], dtype=pl.FP32)")
        lines.append(f"u{i} = self.step(x, u{i})")
        lines.append(f"s{i} = t{i}")
        lines.append(f"if n > {i % 5}:")
        lines.append(f"    s{i} = u{i}")
        lines.append(f"big = pl.assemble(big, s{i}, [{16 * i}, 0])")
    lines.append("y = self.acc(x, 0, y)")
    return _program(lines, f", big: pl.InOut[pl.Tensor[[{16 * max(1, n // 4)}, 16], pl.FP32]]")


def reuses(n: int) -> str:
    lines = []
    for i in range(n // 4):
        lines.append(f"u{i} = pl.create_tensor([16, 16], dtype=pl.FP32)")
        lines.append(f"t{i} = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=0.5)")
        lines.append(f"t{i} = self.step(x, t{i})")
        lines.append(f"u{i} = pl.assemble(u{i}, t{i}, [0, 0])")
        lines.append(f"y = self.acc(u{i}, 0, y)")
        lines.append(f"t{i} = self.acc(x, 0, t{i})")
        lines.append(f"y = self.acc(t{i}, 0, y)")
    return _program(lines)


SHAPES = {"straight": straight, "nested": nested, "branches": branches, "tiles": tiles, "scopes": scopes, "mixed": mixed, "assembles": assembles, "reuses": reuses, "choices": choices}
ALL_SHAPES = ("straight", "nested", "phases", "branches", "tiles", "scopes", "mixed", "assembles", "reuses")  # the order the table prints them in


def _program(lines: list[str], extra_params: str = "") -> str:
    return HEADER.format(extra=extra_params) + "".join(" " * 8 + line + "\n" for line in lines) + "        return y\n"


def source_of(shape: str, size: int, phases_shape: tuple[int, int] | None = None) -> str:
    if shape == "phases":
        p, b = phases_shape or (max(1, size // 256), 256)
        return phases(p, b)
    return SHAPES[shape](size)


def compile_once(path: str) -> dict:
    """Compile the program in ``path`` in this process; returns timings and sizes.

    The compiler's own modules are imported first: the figure is the compile, not start-up. The
    compile is the one ``nanopass run`` does without dumps: the intermediate trees are released
    as the passes go (``keep_tree=needed_by_result``).
    """
    from nanopass.api import collector_paused, needed_by_result, result_from_stages, run_pipeline
    from nanopass.loader import load_programs
    for module in ("nanopass.dsl",  # what the program imports
                   "nanopass.passes.frontend.parse_dsl",  # imported by the first compile otherwise
                   "nanopass.passes.pipeline",  # builds every language and pass
                   "nanopass.printer.cpp"):
        importlib.import_module(module)

    # The cyclic collector stays paused until the trees are released, as in `nanopass run`: resumed
    # while they are alive, its first collection would walk every node of every stage.
    with collector_paused():
        start = time.process_time()
        program = load_programs(path)[0]
        stages = run_pipeline(program, keep_tree=needed_by_result)  # as `nanopass run` without dumps
        result = result_from_stages(stages)
        total = time.process_time() - start
        figures = {
            "total": total,
            "passes": {s.name: s.seconds for s in stages[1:]},
            "output_bytes": len(result.code),
            "output_lines": result.code.count("\n"),
            "statements": _statements(program.surface(None)),  # the front end's tree, kept by the program
        }
        del program, stages, result
    return figures


def _statements(tree) -> int:
    from nanopass.language import walk

    return sum(1 for n in walk(tree.orch) if n._production in ("Let", "Task", "For", "While", "If", "Scope", "Dummy", "Return"))


def measure(shape: str, size: int, repeat: int, phases_shape=None) -> dict:
    """The figures of ``repeat`` compiles of one shape and size (see ``summarize``)."""
    return measure_all([(shape, size)], repeat, phases_shape)[0]


def runs_per_round(size: int, largest: int) -> int:
    """How many runs a size gets in each round: one for the largest, more for a smaller one
    (``largest // size``, at most ``SMALL_RUNS_FACTOR``): a short compile's time swings most with
    the host's speed (N = 1000's mean moved by a third between sessions), and growth divides the
    largest size's mean by it, so it rests on more samples, taken in the same rounds."""
    return max(1, min(SMALL_RUNS_FACTOR, largest // max(size, 1)))


SMALL_RUNS_FACTOR = 5


def measure_all(configs: list[tuple[str, int]], repeat: int, phases_shape=None, done=None) -> list[dict]:
    """``repeat`` rounds, each compiling every (shape, size) ``runs_per_round`` times, each compile
    in a fresh process.

    Rounds rather than one configuration's runs back to back: this host's speed drifts for tens
    of seconds at a time, and a slow spell then spoils one run of many configurations instead of
    every run of one. ``done(index, figures)`` is called as each configuration's last run ends.
    """
    with tempfile.TemporaryDirectory() as tmp:
        paths, sources = [], []
        for shape, size in configs:
            source = source_of(shape, size, phases_shape if shape == "phases" else None)
            path = os.path.join(tmp, f"bench_{shape}_{size}.py")
            with open(path, "w") as handle:
                handle.write(source)
            paths.append(path)
            sources.append(source)
        largest = max(size for _shape, size in configs)
        per_round = [runs_per_round(size, largest) for _shape, size in configs]
        runs: list[list[dict]] = [[] for _ in configs]
        results: list[dict] = [{} for _ in configs]
        for round_ in range(repeat):
            for i, path in enumerate(paths):
                runs[i].extend(_in_child(path) for _ in range(per_round[i]))
                if round_ == repeat - 1:
                    shape, size = configs[i]
                    results[i] = summarize(runs[i], shape, size, len(sources[i]))
                    if done:
                        done(i, results[i])
    return results


def summarize(runs: list[dict], shape: str, size: int, source_bytes: int) -> dict:
    """The best run's figures, the mean compile time, the best floor, and the median of the runs'
    ratios.

    The floor is measured in each run just before and after its compile, so a run's ratio
    compares the two under the same conditions (this host's speed drifts between runs). Its
    median, not its best: a slow spell during the floor's measurement alone makes a run's
    ratio too good, as one during the compile alone makes it too bad."""
    best = dict(min(runs, key=lambda r: r["total"]))
    best["mean"] = statistics.fmean(r["total"] for r in runs)
    best["peak_mib"] = max(r["peak_mib"] for r in runs)
    best["ast_parse"] = min(r["ast_parse"] for r in runs)
    best["ratio"] = statistics.median(r["total"] / r["ast_parse"] for r in runs)
    best.update(shape=shape, size=size, source_bytes=source_bytes)
    return best


def growth(first: dict, last: dict, key: str) -> float:
    """How much faster than N the time ``key`` (``"mean"`` or ``"total"``, the best run's) grows
    from ``first``'s size to ``last``'s: 1.0 is linear.

    The mean is the figure to judge growth by on a host whose speed wanders (this one's runs of
    the same compile spread over 1.8x): every size is sampled in every round, so the means of a
    short compile and of a long one average the same spells; the best of a short compile catches
    the host's fastest spell, which a compile 16 times as long cannot fit in, so best-run growth
    leans above the compiler's own."""
    return (last[key] / first[key]) / (last["size"] / first["size"])


def _timed(fn, collect: bool = True) -> float:
    """CPU seconds of ``fn()`` (immune to other processes on a shared machine); with
    ``collect=False`` the cyclic collector is paused, as it is while the compiler runs."""
    paused = not collect and gc.isenabled()
    if paused:
        gc.disable()
    try:
        start = time.process_time()
        fn()
        return time.process_time() - start
    finally:
        if paused:
            gc.enable()


def parse_seconds(path: str) -> float:
    """CPU seconds ``ast.parse`` needs for the file (best of 3, collector paused like the compile's)."""
    with open(path) as handle:
        source = handle.read()
    return min(_timed(lambda: ast.parse(source), collect=False) for _ in range(3))


def peak_mib() -> float:
    """This process's peak resident memory in MiB.

    Linux's ``VmHWM`` belongs to the current address space; ``ru_maxrss`` would also count the
    parent's peak inherited through fork (the benchmark's parent holds large sources)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _in_child(path: str) -> dict:
    """Compile in a fresh interpreter, so peak memory is this compile's own."""
    code = (
        "import json, sys\n"
        "from nanopass.tools.bench import compile_once, parse_seconds, peak_mib\n"
        "sys.setrecursionlimit(20000)\n"
        f"before = parse_seconds({path!r})\n"
        f"r = compile_once({path!r})\n"
        "r['peak_mib'] = peak_mib()\n"
        f"r['ast_parse'] = min(before, parse_seconds({path!r}))\n"
        "print(json.dumps(r))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"compiling {path} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shapes", default=",".join(ALL_SHAPES))
    parser.add_argument("--sizes", default="1000,4000,16000")
    parser.add_argument("--repeat", type=int, default=5, help="rounds; a round runs the largest size once and a "
                        f"smaller one largest // size times (at most {SMALL_RUNS_FACTOR})")
    parser.add_argument("--phases", help="PxB for the phases shape (overrides the size)")
    parser.add_argument("--per-pass", action="store_true")
    parser.add_argument("--json", help="also write the results as JSON to this file")
    parser.add_argument("--edges-size", type=int, help="measure the dependency insertions of each shape at this "
                        "size (default: the smallest of --sizes; 0: not at all)")
    args = parser.parse_args(argv)
    phases_shape = tuple(int(v) for v in args.phases.split("x")) if args.phases else None
    header = f"{'shape':<9}{'N':>7}{'stmts':>8}{'compile s':>11}{'mean s':>9}{'ast.parse s':>13}{'ratio':>7}{'peak MiB':>10}{'src KiB':>9}{'out KiB':>9}"
    print(header)
    print("-" * len(header))
    configs = [(shape, int(size)) for shape in args.shapes.split(",") for size in args.sizes.split(",")]

    def show(_index: int, r: dict) -> None:
        print(
            f"{r['shape']:<9}{r['size']:>7}{r['statements']:>8}{r['total']:>11.3f}{r['mean']:>9.3f}{r['ast_parse']:>13.4f}"
            f"{r['ratio']:>7.1f}{r['peak_mib']:>10.1f}{r['source_bytes'] / 1024:>9.1f}"
            f"{r['output_bytes'] / 1024:>9.1f}",
            flush=True,
        )
        if args.per_pass:
            for name, seconds in sorted(r["passes"].items(), key=lambda kv: -kv[1])[:8]:
                print(f"{'':>16}{name:<36}{seconds:>9.3f}")

    results = measure_all(configs, args.repeat, phases_shape, done=show)
    for shape in args.shapes.split(","):
        rows = [r for r in results if r["shape"] == shape]
        if len(rows) >= 2:
            first, last = rows[0], rows[-1]
            print(
                f"{shape}: time grows {growth(first, last, 'mean'):.2f}x as fast as N from N={first['size']} "
                f"to N={last['size']} by the mean runs, {growth(first, last, 'total'):.2f}x by the best runs "
                f"({last['ratio'] / first['ratio']:.2f}x as fast as ast.parse's)"
            )
    edges_size = args.edges_size if args.edges_size is not None else min(int(size) for size in args.sizes.split(","))
    edges = show_edges(args.shapes.split(","), edges_size)
    for r in results:
        if r["size"] == edges_size and r["shape"] in edges:
            r["edges"] = edges[r["shape"]]
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(results, handle, indent=2)
    return 0


def show_edges(shapes: list[str], size: int) -> dict:
    """Print the dependency figures of each shape at ``size`` (tools/measure_edges.py, one run
    with n=1) beside the compile times; shape -> the figures (or why there are none)."""
    if size <= 0:
        return {}
    from .measure_edges import BENCH_N, shape_measures

    print(f"\ndependency insertions at N={size} (one run, n={BENCH_N}; tools/measure_edges.py)")
    header = f"{'shape':<9}{'tasks':>8}{'insertions':>12}{'redundant':>11}{'minimum':>9}{'dummies':>9}"
    print(header)
    print("-" * len(header))
    out = {}
    for shape, figures, why in shape_measures(size, shapes=shapes):
        if figures is None:
            print(f"{shape:<9}  {why}")
            out[shape] = {"skipped": why}
            continue
        print(f"{shape:<9}{figures.tasks:>8}{figures.insertions:>12}{figures.redundant:>11}{figures.minimum:>9}"
              f"{figures.dummies:>9}", flush=True)
        out[shape] = {k: v for k, v in figures.to_json().items() if k in ("tasks", "insertions", "redundant", "minimum", "dummies")}
    return out


if __name__ == "__main__":
    sys.exit(main())
