"""Every program of a small grammar, checked by enumeration instead of by luck (issue 21).

The grammar: a sequence of ``size`` *atoms* over two tensors, ``a`` (an InOut entry tensor: no
creator) and ``b`` (made by ``pl.create_tensor`` at the top: its creator is an allocation),

- ``read t``: a task reads ``t`` into a fresh tensor (INPUT);
- ``inout t``: a task updates ``t`` (INOUT);
- ``out t``: a task overwrites ``t`` (OUTPUT_EXISTING: the runtime orders no earlier writer);
- ``host_read t``: ``pl.tensor.read(t, [0, 0])`` (its value is stored in ``sink``, so it is live);
- ``host_write t``: ``pl.tensor.write(t, [0, 0], ...)``;

and around any contiguous run of atoms, each at most once and properly nested, in every order:
a loop ``for i in pl.range(n)``, a branch (``if c > 0``, or inside the loop ``if i >= c``, taken
in every iteration or from the second on), a manual scope. Inside the manual scope
every task waits for the one before it in the scope (``deps=[p]``, ``p`` the last TaskId, a loop
carry or branch result as the structure makes it), so the user's part is done and every other
pair is the compiler's. Each program runs for every loop trip ``n`` in 0, 1, 2 (when it has a
loop) and both branch outcomes ``c`` in 0, 1 (when it has a branch).

Every run must pass ``tools/properties.py``'s checks (compiles, every stage agrees with the
reference, no hazard, no fatal error, no value mismatch). Shapes the compiler does not handle
yet are left out unless ``--all-shapes`` (or ``pending.ISSUE_21_PENDING`` is turned off): see
``pending``.

    python -m nanopass.tools.enumerate_programs --size 3 [--all-shapes] [--out DIR] [--jobs 2]

checks every program of that size and below and prints the figures; CI runs size 2 (a test).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Union

from . import pending
from .properties import Findings, check_text

OPS = ("read", "inout", "out", "host_read", "host_write")
TENSORS = ("a", "b")
KINDS = ("loop", "branch", "manual")
TILE = "pl.Tensor[[8, 8], pl.FP32]"


@dataclass(frozen=True)
class Atom:
    op: str
    tensor: str


@dataclass(frozen=True)
class Bracket:
    kind: str
    body: tuple["Item", ...]


Item = Union[Atom, Bracket]
HOLE = Atom("", "")


def skeletons(holes: int, kinds: frozenset[str] = frozenset(KINDS)) -> Iterator[tuple[tuple[Item, ...], frozenset]]:
    """Every sequence of items with exactly ``holes`` atom holes, each bracket kind used at most
    once and never empty, and the kinds it uses."""
    if holes == 0:
        yield (), frozenset()
        return
    for rest, used in skeletons(holes - 1, kinds):
        yield (HOLE,) + rest, used
    for kind in sorted(kinds):
        for inside in range(1, holes + 1):
            for body, used_in in skeletons(inside, kinds - {kind}):
                for rest, used_after in skeletons(holes - inside, kinds - {kind} - used_in):
                    yield (Bracket(kind, body),) + rest, used_in | used_after | {kind}


def fill(items: tuple[Item, ...], atoms: Iterator[Atom]) -> tuple[Item, ...]:
    return tuple(next(atoms) if item == HOLE else Bracket(item.kind, fill(item.body, atoms)) for item in items)


def programs(size: int) -> Iterator[tuple[Item, ...]]:
    """Every program of exactly ``size`` statements (atoms and brackets)."""
    alphabet = [Atom(op, t) for op in OPS for t in TENSORS]
    for holes in range(1, size + 1):
        for skeleton, used in skeletons(holes):
            if holes + len(used) == size:
                for atoms in itertools.product(alphabet, repeat=holes):
                    yield fill(skeleton, iter(atoms))


def walk(items: tuple[Item, ...], around: tuple[str, ...] = ()) -> Iterator[tuple[Atom, tuple[str, ...]]]:
    """Every atom with the bracket kinds around it, outermost first, in program order."""
    for item in items:
        if isinstance(item, Atom):
            yield item, around
        else:
            yield from walk(item.body, around + (item.kind,))


def kinds_of(items: tuple[Item, ...]) -> set[str]:
    return {kind for _, around in walk(items) for kind in around}


TASKS = ("read", "inout", "out")


def features(items: tuple[Item, ...]) -> frozenset[str]:
    """The shapes of ``pending.PENDING`` a program has (syntactic, so a superset of the failing
    ones): a host write after a task read of its tensor, a host access after a task in a manual
    scope touching its tensor (later in the program, or both in the loop), a manual scope inside
    the loop, a write inside a branch inside the loop."""
    atoms = list(walk(items))
    found = set()

    def after(i: int, j: int) -> bool:  # does atom j run after atom i (later, or both in the loop)?
        return i < j or ("loop" in atoms[i][1] and "loop" in atoms[j][1])

    for i, (a, around_a) in enumerate(atoms):
        for j, (b, _) in enumerate(atoms):
            if i == j or a.tensor != b.tensor or not after(i, j) or not b.op.startswith("host"):
                continue
            if a.op == "read" and b.op == "host_write":
                found.add("host_write_after_read")
            if a.op in TASKS and "manual" in around_a:
                found.add("host_after_manual_task")
        if "manual" in around_a and "loop" in around_a[: around_a.index("manual")]:
            found.add("manual_in_loop")
        if a.op in ("inout", "out") and "branch" in around_a and "loop" in around_a[: around_a.index("branch")]:
            found.add("cond_write_in_loop")
    return frozenset(found)


# -- rendering --------------------------------------------------------------------------------------


HEADER = f'''\
# An enumerated program (nanopass.tools.enumerate_programs): {{shape}}
import nanopass.dsl as pl


@pl.program
class Enumerated:
    @pl.function(type=pl.FunctionType.AIV)
    def k_copy(self, a: {TILE}, out: pl.Out[{TILE}]) -> {TILE}:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: {TILE} = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def k_acc(self, a: {TILE}, acc: pl.InOut[{TILE}]) -> {TILE}:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: {TILE} = pl.store(t, [0, 0], acc)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: {TILE},
        a: pl.InOut[{TILE}],
        sink: pl.InOut[pl.Tensor[[16], pl.FP32]],
        n: pl.Scalar[pl.INT64],
        c: pl.Scalar[pl.INT64],
    ) -> {TILE}:
        b: {TILE} = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=0)
'''


def shape(items: tuple[Item, ...]) -> str:
    """A one-line name of a program: ``loop[read a; manual[inout b]]; host_write a``."""
    return "; ".join(f"{i.op} {i.tensor}" if isinstance(i, Atom) else f"{i.kind}[{shape(i.body)}]" for i in items)


def render(items: tuple[Item, ...]) -> str:
    lines: list[str] = []
    counter = itertools.count()
    _render(items, 2, False, lines, counter)
    return HEADER.format(shape=shape(items)) + "".join(f"{'    ' * d}{text}\n" for d, text in lines) + "        return a\n"


def _render(items, depth: int, manual: bool, lines: list, counter, around: tuple[str, ...] = ()) -> None:
    for item in items:
        if isinstance(item, Bracket):
            if item.kind == "loop":
                lines.append((depth, "for i in pl.range(n):"))
            elif item.kind == "branch":
                lines.append((depth, "if i >= c:" if "loop" in around else "if c > 0:"))
            else:
                lines.append((depth, "with pl.manual_scope():"))
                if any(atom.op in ("read", "inout", "out") for atom, _ in walk(item.body)):
                    lines.append((depth + 1, "p = None"))
            _render(item.body, depth + 1, manual or item.kind == "manual", lines, counter, around + (item.kind,))
            continue
        k, t = next(counter), item.tensor
        if item.op == "host_read":
            lines += [(depth, f"v{k} = pl.tensor.read({t}, [0, 0])"), (depth, f"pl.tensor.write(sink, [{k}], v{k})")]
        elif item.op == "host_write":
            lines.append((depth, f"pl.tensor.write({t}, [0, 0], {k}.5)"))
        else:
            if item.op == "read":
                lines.append((depth, f"r{k}: {TILE} = pl.create_tensor([8, 8], dtype=pl.FP32)"))
            kernel, args, target = {
                "read": ("k_copy", f"{t}, r{k}", f"r{k}"), "inout": ("k_acc", f"x, {t}", t), "out": ("k_copy", f"x, {t}", t),
            }[item.op]
            if manual:
                lines += [(depth, f"{target}, q{k} = pl.submit(self.{kernel}, {args}, deps=[p])"), (depth, f"p = q{k}")]
            else:
                lines.append((depth, f"{target} = self.{kernel}({args})"))


def runs(items: tuple[Item, ...]) -> list[dict[str, str]]:
    """The parameter values a program runs for: loop trips 0, 1, 2 and both branch outcomes."""
    kinds = kinds_of(items)
    trips = ("0", "1", "2") if "loop" in kinds else ("1",)
    outcomes = ("0", "1") if "branch" in kinds else ("1",)
    return [{"n": n, "c": c} for n in trips for c in outcomes]


# -- the run --------------------------------------------------------------------------------------


def check(items: tuple[Item, ...], findings: Findings) -> None:
    check_text(render(items), runs(items), findings, every_stage=False)


def enumerate_all(size: int, all_shapes: bool, findings: Findings, part: tuple[int, int] = (0, 1)) -> None:
    """Check every program of 1..``size`` atoms (``part`` = (k, parts): every parts-th from the k-th)."""
    allowed = None if all_shapes else pending.handled
    index = 0
    for atoms in range(1, size + 1):
        for items in programs(atoms):
            if allowed is not None and not allowed(features(items)):
                findings.skipped += 1
                continue
            if index % part[1] == part[0]:
                check(items, findings)
            index += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nanopass.tools.enumerate_programs",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=3, help="statements (atoms and brackets) per program at most (default 3)")
    parser.add_argument("--all-shapes", action="store_true",
                        help="also the shapes the compiler does not handle yet (pending.PENDING)")
    parser.add_argument("--out", type=Path, help="save the smallest failing program of each kind here")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    start = time.monotonic()
    all_shapes = args.all_shapes or not pending.ISSUE_21_PENDING
    if args.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(args.jobs) as pool:
            parts = list(pool.map(_part, [(args.size, all_shapes, k, args.jobs) for k in range(args.jobs)]))
        findings = Findings.merge(parts)
    else:
        findings = Findings()
        enumerate_all(args.size, all_shapes, findings)
    print(findings.summary(time.monotonic() - start))
    if args.out is not None:
        for path in findings.save(args.out):
            print(f"saved {path}", file=sys.stderr)
    return 1 if findings.failures else 0


def _part(job) -> Findings:
    size, all_shapes, k, parts = job
    findings = Findings()
    enumerate_all(size, all_shapes, findings, (k, parts))
    return findings


if __name__ == "__main__":
    sys.exit(main())
