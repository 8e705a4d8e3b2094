"""The bounded-exhaustive generator: every program of a small grammar up to K items.

Atoms over the two tensors a and b (x is a read-only input):
  rd(T)   a task reading T into a runtime-allocated output   `f, t = pl.submit(self.rd, T)`
  wr(T)   a task writing T (Out)                             `T = self.wr(x, T)`
  cp(T,U) a task reading T and updating U (InOut)            `U = self.cp(T, U)`
  vw(T)   a task writing rows 2..5 of T through a slice      `s = slice(T); s = self.wv(x, s)`
  hr(T)   a host read of T[3, 1]                             `v = pl.tensor.read(T, [3, 1])`
  hw(T)   a host write of T[3, 1]                            `pl.tensor.write(T, [3, 1], 1.0)`
  hd(T)   a dead host read of T[3, 1]: nothing uses `v`      `v = pl.tensor.read(T, [3, 1])`
(hr writes the value it reads to `sink`, so that it is used; hd observes nothing, and the
compiler drops it, but it must not take it for a wait on T's writers.)
Blocks, each holding a non-empty item sequence: `for i in pl.range(n)`, `for i in pl.parallel(n)`
(`pl.parallel(2)` in a manual scope), `if c > 0` (`if i > 0` directly inside a loop), and
`with pl.manual_scope()` (whose tasks a careful user chains with deps). Manual scopes do not nest.
An item is an atom (size 1) or a block (size 1 + its body). Programs are enumerated by size, all
of size k before any of size k + 1, in a fixed order, so an index names one program for good.
The "small" alphabet (rd, wr, hr, hw of a alone) reaches one size further in the same time.
"""

from __future__ import annotations

import functools
from typing import Iterator

from . import grammar
from . import program as P

TENSORS = ("a", "b")
ATOMS = ([("rd", t) for t in TENSORS] + [("wr", t) for t in TENSORS] + [("cp", "a", "b"), ("cp", "b", "a")]
         + [("vw", t) for t in TENSORS] + [("hr", t) for t in TENSORS] + [("hw", t) for t in TENSORS]
         + [("hd", t) for t in TENSORS])
SMALL_ATOMS = (("rd", "a"), ("wr", "a"), ("hr", "a"), ("hw", "a"))
ALPHABETS = {"full": ATOMS, "small": SMALL_ATOMS}
BLOCKS = ("range", "parallel", "if", "manual")

KERNELS = (
    P.Kernel("rd", (("in", "A"), ("out", "A"))),
    P.Kernel("wr", (("in", "A"), ("out", "A"))),
    P.Kernel("cp", (("in", "A"), ("inout", "A"))),
    P.Kernel("wv", (("in", "A"), ("out", "B"))),
)


def shapes(size: int) -> Iterator[tuple]:
    """Item sequences of exactly `size`: tuples of "atom" or (block, inner shape)."""
    return grammar.shapes(size, BLOCKS, ("manual",))


@functools.lru_cache(maxsize=None)
def _enumeration(atoms: tuple) -> grammar.Framed:
    """The programs over the alphabet `atoms`: shapes with blocks (fewer atoms) first, in
    grammar.shapes' order among the same number of atoms, each shape's fills in product order."""
    return grammar.Framed(BLOCKS, lambda shape, fill: build(shape, (atoms[k] for k in fill)), len(atoms),
                          shapes=lambda size: sorted(shapes(size), key=grammar.n_atoms))


def programs(size: int, atoms: tuple = ATOMS, patterns=()) -> Iterator[P.Program]:
    """Every program of exactly `size` items over the alphabet `atoms` (of a shape one of
    `patterns` matches, when given); shapes with blocks (fewer atoms) first, so that a run cut
    short has covered every loop, branch and scope shape."""
    return _enumeration(tuple(atoms)).programs(size, patterns=patterns)


def count(size: int, atoms: tuple = ATOMS, patterns=()) -> int:
    return _enumeration(tuple(atoms)).count(size, patterns=patterns)


class _Builder(grammar.Builder):
    def block(self, item, chain, loop_var):
        block, inner = item
        if block in ("range", "parallel"):
            var = self.fresh("i")
            trip = 2 if (chain and block == "parallel") else "n"
            return P.Loop(block, var, trip, tuple(self.items(inner, chain, var)))
        if block == "if":
            cond = (loop_var, ">", 0) if loop_var else ("c", ">", 0)
            return P.If(cond, tuple(self.items(inner, chain, None)))
        m = self.fresh("m")
        return P.Manual((P.TidNone(m),) + tuple(self.items(inner, m, None)))

    def call(self, kernel, args, results, chain) -> P.Call:
        if chain:
            return P.Call(kernel, args, results, (), True, chain, (chain,))
        return P.Call(kernel, args, results)

    def atom(self, atom, chain, loop_var=None) -> list:
        op, t = atom[0], atom[1]
        if op == "rd":
            tid = chain or self.fresh("t")
            return [P.Call("rd", (t, None), (self.fresh("f"),), (), True, tid, (chain,) if chain else ())]
        if op == "wr":
            return [self.call("wr", ("x", t), (t,), chain)]
        if op == "cp":
            return [self.call("cp", (t, atom[2]), (atom[2],), chain)]
        if op == "vw":
            s = self.fresh("s")
            return [P.Slice(s, t, 2), self.call("wv", ("x", s), (s,), chain)]
        if op in ("hr", "hd"):
            return [P.HostRead(self.fresh("v"), t, (3, 1), self.k % P.SINK_SIZE, live=op == "hr")]
        return [P.HostWrite(t, (3, 1), 1.0)]


def build(shape: tuple, atoms) -> P.Program:
    body = tuple(_Builder(atoms).items(shape, None, None))
    return P.Program(P.kernels_used(KERNELS, body), body)
