"""The bounded-exhaustive "rows" grammar: every program up to K items over two small tensors and
the two row blocks of one big target, symmetry-reduced.

Objects: the [4, 4] parameters `w` and `v` (the small tensors) and the row blocks `a0` (rows
0..3) and `a4` (rows 4..7) of the [8, 4] parameter `a` (the big target). Atoms (22):
  rd(O)   a task reading O (In) into a runtime-allocated output  `f, t = pl.submit(self.rd, O)`
  wr(O)   a task writing O (Out)                                 `O = self.wr(x, O)`
  up(O)   a task updating O (InOut)                              `O = self.up(x, O)`
  asm(B)  create, write, assemble into row block B               `t = pl.create_tensor([4, 4]);
                                                                   t = self.wr(x, t);
                                                                   a = pl.assemble(a, t, [r, 0])`
  hr(O)   a host read of one element of O                        `pl.tensor.read(O, [i, 1])`
  hw(O)   a host write of one element of O                       `pl.tensor.write(O, [i, 1], 1.0)`
A task on a row block takes `s = pl.tensor.slice(a, [4, 4], [r, 0])` first; a host access of a
row block names `a` with row 1 or 5. Blocks, each around a non-empty item sequence (an item is an
atom, size 1, or a block, size 1 + its body): `with pl.manual_scope()` (with the deps a careful
user writes for the program's own conflicts, see _Builder, and none for a placement the compiler
may choose; manual scopes do not nest, as the DSL rules), `for i in pl.range(n)`, `for i in pl.range(2)`, and `if i > 0` inside a
loop, `if c > 0` elsewhere. Runs: n in 0, 1, 2 and c in 0, 1 (runner.SETTINGS).

Symmetry: swapping `w` and `v`, or the row blocks, maps a program to one with the same meaning up
to renaming; of each class only the member whose atom sequence is smallest (in ATOMS order) is
enumerated. Programs come by size, and within a size with fewer atoms first, in a fixed order,
so an index names one program for good.
"""

from __future__ import annotations

from . import grammar
from . import program as P

SMALL = ("w", "v")
BLOCKS_OF_A = ("a0", "a4")
OBJECTS = SMALL + BLOCKS_OF_A
ATOMS = tuple([(op, o) for op in ("rd", "wr", "up") for o in OBJECTS] + [("asm", b) for b in BLOCKS_OF_A]
              + [(op, o) for op in ("hr", "hw") for o in OBJECTS])
BLOCKS = ("manual", "range_n", "range_2", "if")
EXTRA = ("v",)                 # the second small tensor, a parameter after `sink`

KERNELS = (
    P.Kernel("rd", (("in", "B"), ("out", "B"))),
    P.Kernel("wr", (("in", "A"), ("out", "B"))),
    P.Kernel("up", (("in", "A"), ("inout", "B"))),
)

_SWAP = {"w": "v", "v": "w", "a0": "a4", "a4": "a0"}


def _renamer(swap_small: bool, swap_rows: bool):
    def obj(o):
        if (o in SMALL and swap_small) or (o in BLOCKS_OF_A and swap_rows):
            return _SWAP[o]
        return o
    return lambda atom: (atom[0], obj(atom[1]))


RENAMINGS = tuple(grammar.renaming(ATOMS, _renamer(s, r)) for s in (False, True) for r in (False, True))[1:]
n_atoms = grammar.n_atoms


class _Builder(grammar.Builder):
    """Renders atoms; in a manual scope a careful user's deps: `tO` is the TaskId of the last task
    on object O, which the next task on O waits for; `uB` that of the last task writing a source
    assembled into row block B, which the next task on B waits for too (the copy's data). The
    source's writer itself waits for nothing: the user writes a fresh tensor."""

    def __init__(self, fill: tuple):
        super().__init__(fill, ATOMS)
        self.tids: set = set()

    def block(self, item, manual, loop_var):
        block, inner = item
        if block.startswith("range"):
            var = self.fresh("i")
            trip = "n" if block == "range_n" else 2
            return P.Loop("range", var, trip, tuple(self.items(inner, manual, var)))
        if block == "if":
            cond = (loop_var, ">", 0) if loop_var else ("c", ">", 0)
            return P.If(cond, tuple(self.items(inner, manual, loop_var)))
        self.tids = set()
        body = tuple(self.items(inner, True, loop_var))
        return P.Manual(tuple(P.TidNone(t) for t in sorted(self.tids)) + body)

    def task(self, kernel, args, results, obj, manual) -> P.Call:
        if not manual:
            if kernel == "rd":
                return P.Call(kernel, args, results, (), True, self.fresh("q"))
            return P.Call(kernel, args, results)
        deps = (f"t{obj}",) + ((f"u{obj}",) if obj in BLOCKS_OF_A else ())
        self.tids |= set(deps)
        return P.Call(kernel, args, results, (), True, f"t{obj}", deps)

    def operand(self, obj) -> tuple:
        """(statements that make the operand, its name)."""
        if obj in SMALL:
            return [], obj
        s = self.fresh("s")
        return [P.Slice(s, "a", int(obj[1:]))], s

    def atom(self, atom, manual, loop_var=None) -> list:
        op, obj = atom
        if op in ("hr", "hw"):
            tensor, row = (obj, 1) if obj in SMALL else ("a", 1 + int(obj[1:]))
            if op == "hr":
                return [P.HostRead(self.fresh("h"), tensor, (row, 1), self.k % P.SINK_SIZE)]
            return [P.HostWrite(tensor, (row, 1), 1.0)]
        if op == "asm":
            t = self.fresh("t")
            if manual:
                self.tids.add(f"u{obj}")
                write = P.Call("wr", ("x", t), (t,), (), True, f"u{obj}")
            else:
                write = P.Call("wr", ("x", t), (t,))
            return [P.Create(t, "B"), write, P.Assemble("a", t, int(obj[1:]))]
        pre, name = self.operand(obj)
        if op == "rd":
            return pre + [self.task("rd", (name, None), (self.fresh("f"),), obj, manual)]
        return pre + [self.task(op, ("x", name), (name,), obj, manual)]


def build(shape: tuple, fill: tuple) -> P.Program:
    body = tuple(_Builder(fill).items(shape, False, None))
    return P.Program(P.kernels_used(KERNELS, body), body, extra=EXTRA)


GRAMMAR = grammar.Grammar(ATOMS, BLOCKS, ("manual",), RENAMINGS, build)
shapes, fills, ordered_shapes, programs, count = (GRAMMAR.shapes, GRAMMAR.fills, GRAMMAR.ordered_shapes,
                                                  GRAMMAR.programs, GRAMMAR.count)
ENUMERATION = GRAMMAR
