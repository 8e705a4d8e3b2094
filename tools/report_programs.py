"""Large programs for the ``--dump-all`` report: N kernel calls of a layered computation.

    python -m nanopass.tools.report_programs N [FILE]

``layered(n)`` writes a program of ``n`` submit sites over a pool of ``POOL`` tile tensors:
each call reads two tiles and writes a third (``k_add`` on AIV, ``k_mm`` on AIC), every fifth
call accumulates into the InOut parameter ``y``; every fourth block of eight calls runs twice in
a ``pl.range(2)`` loop, and every tenth block is a manual scope of four parallel branches
chained by a TaskId carry. Writing a tile that earlier calls read makes write-after-read pairs
(``order_write_after_read`` orders them), so the task graph has several edges per node, as real
programs do. The program has no scalar parameter, so the interpreter runs every stage without
``--set``. The output is a function of ``n`` alone.
"""

from __future__ import annotations

import sys

POOL = 12
TILE = "pl.Tensor[[16, 16], pl.FP32]"

HEADER = f'''\
import nanopass.dsl as pl


@pl.program
class Layered:
    @pl.function(type=pl.FunctionType.AIV)
    def k_add(self, a: {TILE}, b: {TILE}, out: pl.Out[{TILE}]) -> {TILE}:
        return out

    @pl.function(type=pl.FunctionType.AIC)
    def k_mm(self, a: {TILE}, b: {TILE}, out: pl.Out[{TILE}]) -> {TILE}:
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def k_acc(self, a: {TILE}, acc: pl.InOut[{TILE}]) -> {TILE}:
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_layers(self, x: {TILE}, w: {TILE}, y: pl.InOut[{TILE}]) -> {TILE}:
'''


def layered(n: int) -> str:
    """The DSL source of a program with ``n`` submit sites (``n`` >= 1)."""
    lines = []
    calls = 0
    for i in range(min(POOL, n)):
        lines.append(f"p{i} = pl.create_tensor([16, 16], dtype=pl.FP32)")
        lines.append(f"p{i} = self.k_add(x, w, p{i})")
        calls += 1
    used = min(POOL, n)
    block = 0
    while calls < n:
        if block % 10 == 9:
            lines += [
                "with pl.manual_scope():",
                "    prev = None",
                f"    for br{block} in pl.parallel(4):",
                f"        y, prev = pl.submit(self.k_acc, p{block % used}, y, deps=[prev])",
            ]
            calls += 1
        else:
            indent = ""
            if block % 4 == 3:
                lines.append(f"for r{block} in pl.range(2):")
                indent = "    "
            for _ in range(min(8, n - calls)):
                lines.append(indent + _call(calls, used))
                calls += 1
        block += 1
    return HEADER + "".join(" " * 8 + line + "\n" for line in lines) + "        return y\n"


def _call(j: int, used: int) -> str:
    if j % 5 == 4:
        return f"y = self.k_acc(p{(3 * j) % used}, y)"
    dst = (3 * j + 1) % used
    a = (5 * j) % used
    b = (7 * j + 3) % used
    a = a if a != dst else (a + 1) % used
    b = b if b != dst else (b + 2) % used
    kernel = "k_mm" if j % 3 == 0 else "k_add"
    return f"p{dst} = self.{kernel}(p{a}, p{b}, p{dst})"


def main(argv: list[str]) -> int:
    if not argv or not argv[0].isdigit() or int(argv[0]) < 1:
        print("usage: python -m nanopass.tools.report_programs N [FILE]", file=sys.stderr)
        return 2
    source = layered(int(argv[0]))
    if len(argv) > 1:
        with open(argv[1], "w", encoding="utf-8") as handle:
            handle.write(source)
    else:
        sys.stdout.write(source)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
