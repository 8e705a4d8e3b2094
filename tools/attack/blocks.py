"""The adversarial tester's bounded-exhaustive "blocks" grammar: which names leave an outlined
block (surface_blocks.py's meaning and model), in every small arrangement of blocks, reads and
rebindings in host loops, branches and manual scopes.

Two names, `t` and `u`, each a `[8, 4]` tensor created (filled) before the body; the atoms:
  rd(T)       a task reading T                        `a = self.rd(T, a)`
  hr(T)       a host read of T[1, 1]                  `h = pl.tensor.read(T, [1, 1])`
  up(T)       a task updating T in place              `T = self.up(T)`
  new(T)      a new tensor                            `T = pl.create_tensor([8, 4], ..., init_value=0.5)`
  mv(T, U)    T names U's tensor                      `T = U`
  blk(T)      a block binding T                       `with pl.at(...): T = pl.add(x, x)`
  blkr(T, U)  a block reading U, binding T            `with pl.at(...): T = pl.add(U, x)`
  blk2(T, U)  a block binding both                    `with pl.at(...): T = pl.add(x, x)` / `U = pl.muls(T, 2.0)`
  inl(T)      a call of an Inline function whose block  `T = self.inlK(x, T, ...)`, its body
              binds its parameter q (the caller's T,    `with pl.at(...): q = pl.add(p, p)`,
              reference-surface.md section 5)           `return q` (one function per call; in a
              manual scope, blk(T))
Blocks around a non-empty item sequence: `for i in pl.range(n)`, `for i in pl.range(2)`,
`if n > 1`, `with pl.manual_scope()` (a careful user chains its tasks and blocks: `m = None`,
then `deps=[m]` on each and `as m` / `, m = pl.submit(...)`), and a `pl.while_` of n iterations.
A block that reads a name it binds (`T = pl.add(T, x)`) is not an atom: every such block that
leaves T live failed at de34d9e (the kernel has no Out for T; surface_blocks.NO_READ_REBIND).
Runs: n in 0..3.

Symmetry: swapping `t` and `u` maps a program to one with the same meaning up to renaming; of each
class only the member whose atom sequence is smallest (in ATOMS order) is enumerated.
"""

from __future__ import annotations

from . import grammar
from . import program as P
from . import surface as S
from .surface_blocks import Blk, BOp

NAMES = ("t", "u")
_OTHER = {"t": "u", "u": "t"}
ATOMS = tuple([(op, t) for op in ("rd", "hr", "up", "new", "blk", "inl") for t in NAMES]
              + [(op, t, _OTHER[t]) for op in ("mv", "blkr", "blk2") for t in NAMES])
BLOCKS = ("range_n", "range_2", "if_n", "manual", "while_n")
SETTINGS = tuple((n, 0) for n in range(4))
FILL = 0.5

KERNELS = (
    P.Kernel("rd", (("in", "A"), ("inout", "A"))),
    P.Kernel("up", (("inout", "A"),)),
)


def _renamed(atom: tuple) -> tuple:
    return (atom[0],) + tuple(_OTHER[t] for t in atom[1:])


RENAMINGS = (grammar.renaming(ATOMS, _renamed),)
n_atoms = grammar.n_atoms


class _Builder(grammar.Builder):
    def __init__(self, fill: tuple):
        super().__init__(fill, ATOMS)
        self.blocks = 0
        self.functions: list = []

    def block(self, item, manual: bool):
        block, inner = item
        if block == "manual":
            return P.Manual((P.TidNone("m"),) + tuple(self.items(inner, True)))
        body = tuple(self.items(inner, manual))
        if block == "if_n":
            return P.If(("n", ">", 1), body)
        var = self.fresh("i")
        if block == "while_n":
            return S.While(var, "n", body, count=self.fresh("e"))
        kind, trip = block.split("_")
        return P.Loop(kind, var, "n" if trip == "n" else int(trip), body)

    def task(self, kernel: str, args: tuple, results: tuple, manual: bool) -> P.Call:
        if manual:
            return P.Call(kernel, args, results, (), True, "m", ("m",))
        return P.Call(kernel, args, results)

    def blk(self, ops: tuple, manual: bool) -> Blk:
        self.blocks += 1
        return Blk(f"blk{self.blocks}", ops, "at", "m" if manual else None)

    def atom(self, atom: tuple, manual: bool) -> list:
        op, t = atom[0], atom[1]
        if op == "rd":
            return [self.task("rd", (t, "a"), ("a",), manual)]
        if op == "hr":
            self.k += 1
            return [P.HostRead(self.fresh("h"), t, (1, 1), self.k % P.SINK_SIZE)]
        if op == "up":
            return [self.task("up", (t,), (t,), manual)]
        if op == "new":
            return [P.Create(t, "A", FILL)]
        if op == "mv":
            return [P.Alias(t, atom[2])]
        if op == "blk":
            return [self.blk((BOp(t, ("x", "x")),), manual)]
        if op == "inl" and manual:     # (no Inline call in a manual scope: its block would not chain)
            return [self.blk((BOp(t, ("x", "x")),), manual)]
        if op == "inl":
            name = f"inl{len(self.functions)}"
            self.functions.append(S.InlineFn(name, (("p", "A", "in"), ("q", "A", "inout")),
                                             (Blk(f"ib{len(self.functions)}", (BOp("q", ("p", "p")),)),),
                                             ("q",), ("A",)))
            return [S.InlineCall(name, ("x", t), (t,))]
        if op == "blkr":
            return [self.blk((BOp(t, (atom[2], "x")),), manual)]
        return [self.blk((BOp(t, ("x", "x")), BOp(atom[2], (t,))), manual)]


def build(shape: tuple, fill: tuple) -> P.Program:
    b = _Builder(fill)
    body = tuple(P.Create(t, "A", FILL) for t in NAMES) + tuple(b.items(shape, False))
    return P.Program(P.kernels_used(KERNELS, body), body, settings=SETTINGS, surface=bool(b.functions),
                     functions=tuple(b.functions))


GRAMMAR = grammar.Grammar(ATOMS, BLOCKS, ("manual",), RENAMINGS, build)
shapes, fills, ordered_shapes, programs, count = (GRAMMAR.shapes, GRAMMAR.fills, GRAMMAR.ordered_shapes,
                                                  GRAMMAR.programs, GRAMMAR.count)
ENUMERATION = GRAMMAR
