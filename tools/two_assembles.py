"""Every program of a small grammar of two ``pl.assemble``s of one source, checked by enumeration
(``fuse_create_assemble_to_slice``: a source placed by one assemble and assembled again).

One source ``t`` (a ``pl.create_tensor`` that task ``wr`` writes through an ``Out`` argument) is
assembled twice. Each assemble stands at a *site*:

- ``plain``: in the function's body;
- ``if`` / ``else``: in the ``then`` / ``else`` branch of ``if c > 0`` (the other branch updates
  ``x``);
- ``loop1``: in ``for i in pl.range(1)`` (a loop known to run); ``loopn``: in ``pl.range(n)``;
- ``ifloop``: in ``pl.range(1)`` inside ``if c > 0``;

and names its target *directly* (``a = pl.assemble(a, ...)``, a loop carry in a loop) or *through
an alias* (``g = a`` before the two; ``g = pl.assemble(g, ...)``). The two assemble the same rows
of ``a`` (``same``), other rows of ``a`` (``rows``), or rows of ``a`` and of ``b`` (``targets``);
both sites in every order, and two shapes where one ``if`` holds both (``then`` + ``then``, ``then``
+ ``else``). Optionally a task reads ``t`` after both (``read``). Every program runs for ``c`` in
0 and 1 (and ``n`` in 0 and 1 when a site loops over ``n``).

A run must pass ``tools/properties.check_text`` (every stage agrees with the reference, no hazard,
no fatal error, every read sees what the program as written, each assemble a copy, makes it see).
A refusal is no failure here: it is counted by its message, for a reader to judge (one source
assembled into two rows both read has no correct compilation).

    python -m nanopass.tools.two_assembles [--sample K] [--verbose]

prints the figures and the refusals by message; exit 1 when a run failed.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass
from typing import Iterator

from nanopass.errors import UserError

HEAD = '''import nanopass.dsl as pl


@pl.program
class TwoAssembles:
    @pl.function(type=pl.FunctionType.AIV)
    def wr(self, p0: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p0

    @pl.function(type=pl.FunctionType.AIV)
    def rd(self, p0: pl.Tensor[[4, 4], pl.FP32], p1: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.AIV)
    def bump(self, p0: pl.InOut[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p0

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.InOut[pl.Tensor[[4, 4], pl.FP32]],
        a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]],
        b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]],
        r: pl.InOut[pl.Tensor[[4, 4], pl.FP32]],
        n: pl.Scalar[pl.INT64],
        c: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 4], pl.FP32]:
'''

SITES = ("plain", "if", "else", "loop1", "loopn", "ifloop")
RELATIONS = ("same", "rows", "targets")
# two assembles in one if: both in its then branch, or one in each branch
ONE_IF = ("then_then", "then_else")


@dataclass(frozen=True)
class Shape:
    first: str  # a site of SITES, or a shape of ONE_IF (then ``second`` is "")
    second: str
    relation: str  # of RELATIONS
    aliased: tuple[bool, bool]  # whether each assemble names its target through ``g``
    read: bool  # whether a task reads ``t`` after both

    @property
    def name(self) -> str:
        spelled = "".join("g" if a else "d" for a in self.aliased)
        return f"{self.first}-{self.second or 'oneif'}-{self.relation}-{spelled}{'-read' if self.read else ''}"

    def runs(self) -> list[dict[str, str]]:
        ns = (0, 1) if "loopn" in (self.first, self.second) else (0,)
        return [{"n": str(n), "c": str(c)} for n in ns for c in (0, 1)]


def shapes() -> Iterator[Shape]:
    """Every shape of the grammar, in a fixed order."""
    for relation in RELATIONS:
        for aliased in itertools.product((False, True), repeat=2):
            for read in (False, True):
                for first, second in itertools.product(SITES, repeat=2):
                    yield Shape(first, second, relation, aliased, read)
                for one_if in ONE_IF:
                    yield Shape(one_if, "", relation, aliased, read)


def _assemble(k: int, shape: Shape) -> str:
    """The ``k``-th assemble's statement (no indentation)."""
    if shape.relation == "targets" and k == 1:
        target = "b"  # (an alias names ``h = b``)
        alias = "h"
    else:
        target, alias = "a", "g"
    rows = "[0, 0]" if shape.relation == "rows" and k == 1 else "[4, 0]"
    name = alias if shape.aliased[k] else target
    return f"{name} = pl.assemble({name}, t, {rows})"


def _at(site: str, stmt: str) -> list[str]:
    """``stmt`` at ``site``: lines indented from the body's level (8 spaces)."""
    pad = " " * 8
    if site == "plain":
        return [pad + stmt]
    if site == "if":
        return [pad + "if c > 0:", pad + "    " + stmt]
    if site == "else":
        return [pad + "if c > 0:", pad + "    x = self.bump(x)", pad + "else:", pad + "    " + stmt]
    if site == "loop1":
        return [pad + "for i in pl.range(1):", pad + "    " + stmt]
    if site == "loopn":
        return [pad + "for j in pl.range(n):", pad + "    " + stmt]
    if site == "ifloop":
        return [pad + "if c > 0:", pad + "    for k in pl.range(1):", pad + "        " + stmt]
    raise ValueError(site)


def program(shape: Shape) -> str:
    """The program of ``shape``, as source text."""
    pad = " " * 8
    lines = [
        pad + "t = pl.create_tensor([4, 4], dtype=pl.FP32)",
        pad + "t = self.wr(t)",
        pad + "g = a",
        pad + "h = b",
    ]
    first, second = _assemble(0, shape), _assemble(1, shape)
    if shape.first == "then_then":
        lines += [pad + "if c > 0:", pad + "    " + first, pad + "    " + second]
    elif shape.first == "then_else":
        lines += [pad + "if c > 0:", pad + "    " + first, pad + "else:", pad + "    " + second]
    else:
        lines += _at(shape.first, first) + _at(shape.second, second)
    if shape.read:
        lines.append(pad + "r = self.rd(t, r)")
    lines.append(pad + "return a")
    return HEAD + "\n".join(lines) + "\n"


def refusal_key(error: UserError) -> str:
    """The first line of a refusal's message, without its location and the line numbers it quotes."""
    return re.sub(r"\bline \d+", "line …", str(error).splitlines()[0].split("error: ", 1)[-1])


def check(shape: Shape, findings) -> tuple[list, str | None]:
    """(the failures of ``shape``'s runs, the refusal's key or None)."""
    from .properties import check_text, compile_text

    text = program(shape)
    try:
        compiled = compile_text(text)
    except UserError as error:
        return [], refusal_key(error)
    return check_text(text, shape.runs(), findings, name=shape.name, compiled=compiled), None


def main(argv: list[str] | None = None) -> int:
    from .properties import Findings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=1, help="check every K-th shape (default: all)")
    parser.add_argument("--verbose", action="store_true", help="print each shape's outcome")
    args = parser.parse_args(argv)
    findings = Findings()
    refusals: Counter = Counter()
    failed: list[str] = []
    start = time.monotonic()
    for k, shape in enumerate(shapes()):
        if k % args.sample:
            continue
        failures, refusal = check(shape, findings)
        if refusal is not None:
            refusals[refusal] += 1
        for failure in failures:
            failed.append(f"{shape.name} {failure.values}: {failure.kind}: {failure.message.splitlines()[0]}")
        if args.verbose:
            print(shape.name, "refused: " + refusal if refusal else "failed" if failures else "ok", flush=True)
    print(f"{findings.programs} compiled programs, {sum(refusals.values())} refused, "
          f"{len(failed)} failing runs, {time.monotonic() - start:.0f} s")
    for line in failed:
        print("FAIL", line)
    for message, count in sorted(refusals.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"{count:5d} refused: {message}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
