"""The bounded-exhaustive "nested" grammar: assembles of assembles (`--grammar nested`, two levels;
`--grammar nested3`, three), with uses of every level before and after each assemble.

Two levels: the [2, 4] tensor `u` is assembled into rows 2..3 of the [4, 4] tensor `t`, which is
assembled into rows 4..7 of the outer target: the [8, 4] parameter `a`, or (the second target)
a fresh [8, 4] `o` made by create_tensor at the top and read by the host (`o[7, 1]`) at the end.
Three levels: a [1, 4] `v` is assembled into row 1 of `u` first (`u` is then made, not written).
The skeleton atoms, each exactly once and in this order (the atom sequence's, program order):
  T      `t = pl.create_tensor([4, 4])`
  U      (three levels) `u = pl.create_tensor([2, 4])`
  M      the innermost tensor made and written by a kernel: `u = pl.create_tensor([2, 4]);
         u = self.wrd(x, u)` (three levels: `v`, [1, 4], `self.wre`)
  A0     (three levels) `u = pl.assemble(u, v, [1, 0])`
  A1     `t = pl.assemble(t, u, [2, 0])`
  A2     `a = pl.assemble(a, t, [4, 0])` (or `o = ...`)
and the use atoms, anywhere a name they use is bound (after its maker, inside every loop and `if`
holding the maker; the outer target is always bound), on each level O of v, u, t and the outer
target's rows 4..7 (`s = pl.tensor.slice(a, [4, 4], [4, 0])` first):
  rd(O)  a task reading O into a runtime-allocated output   `f, q = pl.submit(self.rd, O)`
  up(O)  a task updating O (InOut)                          `O = self.up(x, O)`
  hr(O)  a host read of the element every level shares      `pl.tensor.read(O, [i, 1])`
  hw(O)  a host write of it                                 `pl.tensor.write(O, [i, 1], 1.0)`
(v[0, 1], u[1, 1], t[3, 1] and a[7, 1] are one element once every source is placed in its target.)
Blocks as in rows.py: `with pl.manual_scope()` (not nested), `for i in pl.range(n)` (range_n), and `if i > 0`
inside a loop, `if c > 0` elsewhere. In a manual scope the deps are a careful user's for the program
as written (copy semantics): a task on a level waits for the last task on it and on every level
assembled into it (`tv`, `tu`, `tt`, `ta`); the maker's writer waits for nothing (a fresh tensor).

Programs come by size (items: an atom 1, a block 1 + its body), then by shape (fewer atoms first,
rows.py's order), then outer target (a, o), then skeleton positions, then use atoms in ATOMS order,
so an index names one program for good. No symmetry to reduce: every object is distinct.
"""

from __future__ import annotations

import itertools
import random
from typing import Iterator

from . import grammar, rows
from . import program as P

BLOCKS = ("manual", "range_n", "if")
TARGETS = ("a", "o")
OPS = ("rd", "up", "hr", "hw")

# per level: (its shape key, the element the host reads and writes; "a" the outer target's rows 4..7)
_LEVELS = {"v": ("E", (0, 1)), "u": ("D", (1, 1)), "t": ("B", (3, 1)), "a": ("B", (7, 1))}
_FEEDS = {"v": (), "u": ("v",), "t": ("u", "v"), "a": ("t", "u", "v")}   # levels assembled into each
_SUFFIX = {"B": "", "D": "d", "E": "e"}


def _kernels():
    out = []
    for shape, sfx in _SUFFIX.items():
        out += [P.Kernel("rd" + sfx, (("in", shape), ("out", shape))),
                P.Kernel("up" + sfx, (("in", "A"), ("inout", shape))),
                P.Kernel("wr" + sfx, (("in", "A"), ("out", shape)))]
    return tuple(out)


KERNELS = _kernels()


class Levels:
    """One grammar of the family: two or three levels (the CLI's GRAMMARS entry)."""

    def __init__(self, depth: int):
        self.depth = depth
        self.objects = ("t", "u", "a") if depth == 2 else ("t", "u", "v", "a")
        self.skeleton = ("T", "M", "A1", "A2") if depth == 2 else ("T", "U", "M", "A0", "A1", "A2")
        self.uses = tuple((op, o) for o in self.objects for op in OPS)
        self.ATOMS = self.skeleton + self.uses
        self.BLOCKS = BLOCKS
        self.inner = "u" if depth == 2 else "v"          # the level M makes and writes

    # ---- enumeration ---------------------------------------------------------------------------

    def shapes(self, size: int) -> list:
        return [s for s in grammar.ordered_shapes(grammar.shapes(size, BLOCKS, ("manual",)))
                if grammar.n_atoms(s) >= len(self.skeleton)]

    def _kept(self, size, max_atoms, patterns) -> list:
        keep = grammar.shape_filter(patterns, BLOCKS)
        return [s for s in self.shapes(size)
                if (max_atoms is None or grammar.n_atoms(s) <= max_atoms) and keep(s)]

    def fills(self, shape) -> Iterator[tuple]:
        """The valid atom sequences of a shape (skeleton positions, then uses, in order)."""
        k = grammar.n_atoms(shape)
        paths = _atom_paths(shape)
        for pos in itertools.combinations(range(k), len(self.skeleton)):
            rest = [i for i in range(k) if i not in pos]
            for uses in itertools.product(self.uses, repeat=len(rest)):
                fill = [None] * k
                for i, sk in zip(pos, self.skeleton):
                    fill[i] = sk
                for i, u in zip(rest, uses):
                    fill[i] = u
                if self.valid(fill, paths):
                    yield tuple(fill)

    def makers(self) -> dict:
        """The skeleton atom that binds each name."""
        return {"t": "T", "u": "U" if self.depth == 3 else "M", "v": "M"}

    def mentions(self, atom) -> tuple:
        if isinstance(atom, tuple):
            return (atom[1],) if atom[1] != "a" else ()
        return {"T": (), "U": (), "M": (), "A0": ("u", "v"), "A1": ("t", "u"), "A2": ("t",)}[atom]

    def valid(self, fill, paths) -> bool:
        """Every name used after its maker, inside every loop and `if` holding the maker (a manual
        scope runs once: what it binds is bound after it)."""
        at = {a: i for i, a in enumerate(fill) if not isinstance(a, tuple)}
        for i, atom in enumerate(fill):
            for name in self.mentions(atom):
                m = at[self.makers()[name]]
                if i < m or not {b for b in paths[m] if b[1] != "manual"} <= set(paths[i]):
                    return False
        return True

    def programs(self, size: int, max_atoms=None, patterns=()) -> Iterator[P.Program]:
        for shape in self._kept(size, max_atoms, patterns):
            for target in TARGETS:
                for fill in self.fills(shape):
                    yield self.build(shape, fill, target)

    def count(self, size: int, max_atoms=None, patterns=()) -> int:
        return len(TARGETS) * sum(sum(1 for _ in self.fills(s)) for s in self._kept(size, max_atoms, patterns))

    # ---- random programs -----------------------------------------------------------------------

    def generate(self, seed: int, max_size=None) -> P.Program:
        """A random program of up to `max_size` items (default 10): a random shape of that size
        with enough atoms, random skeleton positions and uses, retried until valid; for an odd seed
        the skeleton in one block (each assemble in the block of its source's maker: the compiler
        places only those, found/43)."""
        rnd = random.Random(seed)
        top = max(max_size or 10, len(self.skeleton) + 1)
        one_block = seed % 2 == 1
        while True:
            shape = _random_shape(rnd, rnd.randint(len(self.skeleton), top), False)
            k = grammar.n_atoms(shape)
            if k < len(self.skeleton):
                continue
            pos = sorted(rnd.sample(range(k), len(self.skeleton)))
            fill = [rnd.choice(self.uses) for _ in range(k)]
            for i, sk in zip(pos, self.skeleton):
                fill[i] = sk
            paths = _atom_paths(shape)
            if self.valid(fill, paths) and not (one_block and len({paths[i] for i in pos}) > 1):
                return self.build(shape, tuple(fill), rnd.choice(TARGETS))

    # ---- building ------------------------------------------------------------------------------

    def build(self, shape: tuple, fill: tuple, target: str = "a") -> P.Program:
        b = _Builder(self, iter(fill), target)
        body = tuple(b.items(shape, False, None))
        if target == "o":
            body = (P.Create("o", "A"),) + body + (P.HostRead(b.fresh("h"), "o", (7, 1), 0),)
        return P.Program(P.kernels_used(KERNELS, body), body)


def _atom_paths(shape, where=(), blocks=()) -> list:
    """Each atom's enclosing blocks, outermost first, each as (its item's index path, its kind)."""
    out = []
    for j, item in enumerate(shape):
        if item == "atom":
            out.append(blocks)
        else:
            out += _atom_paths(item[1], where + (j,), blocks + ((where + (j,), item[0]),))
    return out


def _random_shape(rnd, size: int, in_manual: bool) -> tuple:
    items, left = [], size
    while left > 0:
        if left == 1 or rnd.random() < 0.6:
            items.append("atom")
            left -= 1
            continue
        blocks = [b for b in BLOCKS if not (in_manual and b == "manual")]
        block = rnd.choice(blocks)
        inner = rnd.randint(1, left - 1)
        items.append((block, _random_shape(rnd, inner, in_manual or block == "manual")))
        left -= inner + 1
    return tuple(items)


class _Builder(rows._Builder):
    """rows.py's blocks; this grammar's atoms and a careful user's deps (module doc)."""

    def __init__(self, g: Levels, atoms, target: str):
        grammar.Builder.__init__(self, atoms)
        self.g = g
        self.target = target
        self.tids: set = set()

    def call(self, kernel, args, results, level, manual, deps=None) -> P.Call:
        if not manual:
            if kernel.startswith("rd"):
                return P.Call(kernel, args, results, (), True, self.fresh("q"))
            return P.Call(kernel, args, results)
        if deps is None:
            deps = tuple(f"t{o}" for o in (level,) + _FEEDS[level] if o in self.g.objects)
        self.tids |= set(deps) | {f"t{level}"}
        return P.Call(kernel, args, results, (), True, f"t{level}", deps)

    def atom(self, atom, manual, loop_var=None) -> list:
        tgt = self.target
        if atom == "T":
            return [P.Create("t", "B")]
        if atom == "U":
            return [P.Create("u", "D")]
        if atom == "M":
            name = self.g.inner
            shape = _LEVELS[name][0]
            return [P.Create(name, shape), self.call("wr" + _SUFFIX[shape], ("x", name), (name,), name, manual, ())]
        if atom == "A0":
            return [P.Assemble("u", "v", 1)]
        if atom == "A1":
            return [P.Assemble("t", "u", 2)]
        if atom == "A2":
            return [P.Assemble(tgt, "t", 4)]
        op, level = atom
        shape, idx = _LEVELS[level]
        tensor = tgt if level == "a" else level
        if op == "hr":
            return [P.HostRead(self.fresh("h"), tensor, idx, self.k % P.SINK_SIZE)]
        if op == "hw":
            return [P.HostWrite(tensor, idx, 1.0)]
        pre, name = [], tensor
        if level == "a":
            name = self.fresh("s")
            pre = [P.Slice(name, tensor, 4)]
        sfx = _SUFFIX[shape]
        if op == "rd":
            return pre + [self.call("rd" + sfx, (name, None), (self.fresh("f"),), level, manual)]
        return pre + [self.call("up" + sfx, ("x", name), (name,), level, manual)]


TWO = Levels(2)
THREE = Levels(3)
