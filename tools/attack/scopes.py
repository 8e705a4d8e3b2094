"""The adversarial tester's bounded-exhaustive "scopes" grammar: buffer lifetimes and loops in
scopes, which the rows grammar (rows.py) does not reach.

Two names, `w` (a parameter) and `v` (a second InOut [4, 4] parameter after `sink`), each bound to
a buffer the atoms may replace; the program's other tensors are the buffers the atoms make:
  new(T)    a fresh tensor                                 `T = pl.create_tensor([4, 4], dtype=pl.FP32)`
  newi(T)   one with a fill                                `T = pl.create_tensor(..., init_value=0.5)`
  wr(T)     a task writing T (Out)                         `T = self.wr(T)`
  up(T)     a task updating T (InOut)                      `T = self.up(T)`
  rd(T)     a task reading T, its output left unused       `f, q = pl.submit(self.rd, T)`
  hr(T)     a host read of T[1, 1]                         `h = pl.tensor.read(T, [1, 1])`
  hw(T)     a host write of T[1, 1]                        `pl.tensor.write(T, [1, 1], 1.0)`
  mk(U, T)  a task reading T whose output, a buffer the     `U, k = pl.submit(self.rd, T)`
            runtime allocates, U names from then on
Blocks, each around a non-empty item sequence (an item is an atom, size 1, or a block, size 1 + its
body): `with pl.scope():` (the function is then written `auto_scope=False`, as the DSL asks; not
inside a manual scope, where the runtime forbids an AUTO scope), `with pl.manual_scope()` (manual
scopes do not nest; a careful user chains every task of the scope: `m = None` first, then each
task `..., m = pl.submit(..., deps=[m])`), `for i in pl.range(n)`, `for i in pl.range(2)`,
`for i in pl.parallel(2)`, `for i, (w, v) in pl.range(n, init_values=(w, v))` ending with
`w, v = pl.yield_(v, w)` (a swap), and `if n > 1`. Every name the atoms bind is `w` or `v`, so
whatever follows a block uses the names bound in it. Runs: n in 0..3 (SETTINGS).

Symmetry: swapping `w` and `v` maps a program to one with the same meaning up to renaming; of each
class only the member whose atom sequence is smallest (in ATOMS order) is enumerated. Programs come
by size, and within a size with fewer atoms first, in a fixed order, so an index names one program
for good.
"""

from __future__ import annotations

from . import grammar
from . import program as P

NAMES = ("w", "v")
ATOMS = tuple([(op, t) for op in ("new", "newi", "wr", "up", "rd", "hr", "hw") for t in NAMES]
              + [("mk", u, t) for u in NAMES for t in NAMES])
BLOCKS = ("scope", "manual", "range_n", "range_2", "parallel_2", "swap_n", "if_n")
EXTRA = ("v",)
SETTINGS = tuple((n, 0) for n in range(4))
FILL = 0.5

KERNELS = (
    P.Kernel("wr", (("out", "B"),)),
    P.Kernel("up", (("inout", "B"),)),
    P.Kernel("rd", (("in", "B"), ("out", "B"))),
)

_SWAP = {"w": "v", "v": "w"}


def _renamed(atom: tuple) -> tuple:
    return (atom[0],) + tuple(_SWAP[t] for t in atom[1:])


RENAMINGS = (grammar.renaming(ATOMS, _renamed),)
n_atoms = grammar.n_atoms


def _has_scope(shape) -> bool:
    return any(item != "atom" and (item[0] == "scope" or _has_scope(item[1])) for item in shape)


class _Builder(grammar.Builder):
    """Renders atoms; in a manual scope every task waits for the one before it (`m`)."""

    NAMES = NAMES          # the two names a swap loop carries (and swaps)
    ATOMS = ATOMS          # what a fill indexes

    def __init__(self, fill: tuple):
        super().__init__(fill, self.ATOMS)

    def block(self, item, manual: bool):
        block, inner = item
        if block == "manual":
            return P.Manual((P.TidNone("m"),) + tuple(self.items(inner, True)))
        if block == "scope":
            return P.Auto(tuple(self.items(inner, manual)))
        if block == "if_n":
            return P.If(("n", ">", 1), tuple(self.items(inner, manual)))
        kind, trip = block.split("_")
        var = self.fresh("i")
        trip = "n" if trip == "n" else int(trip)
        body = tuple(self.items(inner, manual))
        if kind == "swap":
            one, two = self.NAMES
            return P.Loop("range", var, trip, body, carries=((one, one), (two, two)), yields=(two, one),
                          results=(one, two))
        return P.Loop(kind, var, trip, body)

    def task(self, kernel: str, args: tuple, results: tuple, manual: bool) -> P.Call:
        if manual:
            return P.Call(kernel, args, results, (), True, "m", ("m",))
        if None in args:
            return P.Call(kernel, args, results, (), True, self.fresh("k"))
        return P.Call(kernel, args, results)

    def atom(self, atom: tuple, manual: bool) -> list:
        op, t = atom[0], atom[-1]
        if op in ("new", "newi"):
            return [P.Create(t, "B", FILL if op == "newi" else None)]
        if op == "hr":
            return [P.HostRead(self.fresh("h"), t, (1, 1), self.k % P.SINK_SIZE)]
        if op == "hw":
            return [P.HostWrite(t, (1, 1), 1.0)]
        if op == "rd":
            return [self.task("rd", (t, None), (self.fresh("f"),), manual)]
        if op == "mk":
            return [self.task("rd", (t, None), (atom[1],), manual)]
        return [self.task(op, (t,), (t,), manual)]


def build(shape: tuple, fill: tuple) -> P.Program:
    body = tuple(_Builder(fill).items(shape, False))
    return P.Program(P.kernels_used(KERNELS, body), body, auto_scope=not _has_scope(shape),
                     extra=EXTRA, settings=SETTINGS)


GRAMMAR = grammar.Grammar(ATOMS, BLOCKS, ("manual", "scope"), RENAMINGS, build)
shapes, fills, ordered_shapes, programs, count = (GRAMMAR.shapes, GRAMMAR.fills, GRAMMAR.ordered_shapes,
                                                  GRAMMAR.programs, GRAMMAR.count)
ENUMERATION = GRAMMAR
