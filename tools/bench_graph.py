"""Task-graph benchmark: the static task graph (``printer/dot.py``) of the bench's shapes at growing sizes.

    python -m nanopass.tools.bench_graph [--shapes mixed,branches,nested,scopes] [--sizes 1000,4000,16000]

``--dump-all`` draws the graph of every stage, so its walk must stay linear in the program as the
compile does. For each shape and size this compiles the program once, then prints the CPU seconds
of ``to_dot`` on the last stage before emission and on the emission unit (the walk and the DOT
text; the cyclic collector paused, as during a compile with dumps), the nodes and edges of the emission's graph, and per shape how fast the time grows against
N from the smallest size to the largest (1.0: linear). A walk that copies its flow facts at every
if or loop is quadratic on the ``mixed`` shape (N / 2 tensors made first, then N / 2 calls in loops
and ifs): 2.2 s for the last program stage at N = 4000 and 52 s at 16000 before the flows were
opened on each other (now 0.23 s and 0.96 s).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

from .bench import source_of


def measure(shape: str, size: int) -> dict:
    """Seconds of ``to_dot`` on the last program stage and on the emission unit of one compile."""
    from nanopass.api import collector_paused, run_pipeline
    from nanopass.loader import load_programs
    from nanopass.printer.dot import static_graph, to_dot

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, f"{shape}{size}.py")
        with open(path, "w") as handle:
            handle.write(source_of(shape, size))
        stages = run_pipeline(load_programs(path)[0])
    figures: dict = {"shape": shape, "size": size}
    for key, stage in (("program", stages[-2]), ("emission", stages[-1])):
        with collector_paused():  # (as ``--dump-all`` draws them: during the compile)
            start = time.process_time()
            to_dot(stage.tree)
            figures[key] = time.process_time() - start
    graph = static_graph(stages[-1].tree)
    figures["nodes"], figures["edges"] = len(graph.nodes), len(graph.edges)
    return figures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nanopass.tools.bench_graph", description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", default="mixed,branches,nested,scopes")
    parser.add_argument("--sizes", default="1000,4000,16000")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(100000)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'shape':<10}{'N':>7}{'program s':>11}{'emission s':>12}{'nodes':>8}{'edges':>9}")
    for shape in args.shapes.split(","):
        rows = [measure(shape, size) for size in sizes]
        for row in rows:
            print(f"{shape:<10}{row['size']:>7}{row['program']:>11.3f}{row['emission']:>12.3f}{row['nodes']:>8}{row['edges']:>9}", flush=True)
        first, last = rows[0], rows[-1]
        if len(rows) > 1 and first["program"] > 0 and first["emission"] > 0:
            scale = last["size"] / first["size"]
            print(f"{shape}: time grows {last['program'] / first['program'] / scale:.2f}x (program) and "
                  f"{last['emission'] / first['emission'] / scale:.2f}x (emission) as fast as N from N={first['size']} to N={last['size']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
