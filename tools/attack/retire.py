"""The adversarial tester's "retire" grammar: host accesses after the scopes of a tensor's writers.

Written from shared/spec/runtime-api.md section 11 (a task's slot is freed "once the task is
COMPLETED, all consumers have released it and its scope has ended"; a retired producer is
skipped; `set_tensor_data` "also waits for each producer's consumers"), dsl.md and
docs/semantics.md alone; none of the compiler's passes read. A producer (an InOut or Out writer of
an existing tensor) submitted in an inner runtime scope (a `pl.scope()`, or an iteration of a
loop, which the compiler runs as a scope of its own) may retire as soon as that scope has ended,
so a reader submitted afterwards is no consumer of it and a host write through that producer does
not wait for the reader (rtmodel.py's retirement rule). The programs put writers of the
parameters `a` and `b` ([8, 4], InOut) in scopes, loops and guards, readers of them after those
end (in later iterations, after the loop, after the scope), and host writes and reads of their
elements after that, in the orchestration function's own scope or in other scopes and loops:

    wr  `a = self.upa(a)`          InOut writer (a producer)
    ow  `a = self.wra(a)`          Out writer of an existing tensor (OUTPUT_EXISTING, a producer)
    rd  `f, k = pl.submit(self.rda, a)`   a reader into a runtime-allocated output
    cp  `b = self.cpa(a, b)`       a reader of one parameter that writes the other (Out)
    rs  `s = pl.tensor.slice(a, [4, 4], [R, 0]); f = self.rdb(s)` a reader of a row block
    ws  `s = pl.tensor.slice(a, [4, 4], [R, 0]); s = self.upb(s)` an InOut writer of a row block
    hw  `pl.tensor.write(a, [R, 1], v)`   a host write (R = 1 or 5: either row block)
    hr  `v = pl.tensor.read(a, [R, 1])`   a host read, kept live in `sink`
on `a`, `b` and, in one program in three, `t`, made by `pl.create_tensor` first (its creator
an allocation of the function's scope), and blocks `with pl.scope():` (the function then has
auto_scope=False), `with pl.manual_scope():` (atoms only, each task waiting for the one before:
`m = None; f, m = pl.submit(self.rda, a, deps=[m])`), `pl.range(n)`, `pl.range(2)`,
`pl.parallel(2)` and `if i == 0` / `if i >= 1` on the innermost loop variable.
The oracle is the usual one (oracle.check_run under rtmodel.py): every conflicting pair ordered,
every read observing the sequential program's write. Runs for n = 0..2 (runner.SETTINGS).

The exhaustive mode (`--exhaustive --grammar retire --size K`, `programs` and `count`) enumerates
every program of up to K items over one tensor, the parameter `a`, and a fixed alphabet
(ATOMS; a row block is rows 0..3 of `a`, `s = pl.tensor.slice(a, [4, 4], [0, 0])`, and every host
access touches a[1, 1], which every task's region holds, so that every host access conflicts with
every writer and, when it writes, with every reader):

    wr  `a = self.upa(a)`                    a writer of the whole tensor (InOut)
    rd  `f, k = pl.submit(self.rda, a)`      a reader of the whole tensor
    ws  `s = slice; s = self.upb(s)`         a writer of the row block (InOut)
    rs  `s = slice; f, k = pl.submit(self.rdb, s)`   a reader of the row block
    hw  `pl.tensor.write(a, [1, 1], v)`      a host write of the whole tensor
    hr  `v = pl.tensor.read(a, [1, 1])`      a host read of the whole tensor (kept live in `sink`)
    hW  `s = slice; pl.tensor.write(s, [1, 1], v)`   a host write through the row block
    hR  `s = slice; v = pl.tensor.read(s, [1, 1])`   a host read through the row block

and the blocks (EX_BLOCKS) `with pl.scope():` (the function then has auto_scope=False),
`for i in pl.range(2):`, `for i in pl.range(n):`, `if i == 0:` and `if i >= 1:` on the innermost
loop's variable (only inside a loop) and `with pl.manual_scope():` (atoms only, each task waiting
for the one before, the chain `m`). An item is an atom (size 1) or a block (size 1 + its non-empty
body). Programs come by size, all of size k before any of size k + 1; within a size, shapes with
fewer atoms first (every block shape before the plain sequences), then by spelling, then the atom
fills in the alphabet's order, so an index names one program for good (`--skip K` goes on with a
run cut short). Each (shape, fill) is one program and no two render the same source; shapes with an
`if` outside every loop are left out (no loop variable to test).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Optional

from . import grammar
from . import program as P

EX_BLOCKS = ("scope", "range_2", "range_n", "if_0", "if_1", "manual")
BLOCKS = EX_BLOCKS      # the exhaustive mode's blocks, for --shapes patterns
ATOMS = ("wr", "rd", "ws", "rs", "hw", "hr", "hW", "hR")
TENSORS = ("a", "b")
KERNELS = (
    P.Kernel("upa", (("inout", "A"),)),
    P.Kernel("wra", (("out", "A"),)),
    P.Kernel("rda", (("in", "A"), ("out", "A"))),
    P.Kernel("cpa", (("in", "A"), ("out", "A"))),
    P.Kernel("rdb", (("in", "B"), ("out", "B"))),
    P.Kernel("upb", (("inout", "B"),)),
)


class _Gen:
    def __init__(self, rng: random.Random, size: int, tensors: tuple = TENSORS):
        self.rng = rng
        self.tensors = tensors
        self.budget = size
        self.counter = 0
        self.slot = 0
        self.scoped = False      # a pl.scope() was written: the function needs auto_scope=False

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def atom(self, kind: str) -> list:
        r = self.rng
        t = r.choice(self.tensors)
        row = r.choice((1, 5))
        if kind == "wr":
            return [P.Call("upa", (t,), (t,))]
        if kind == "ow":
            return [P.Call("wra", (t,), (t,))]
        if kind == "rd":
            return [P.Call("rda", (t, None), (self.fresh("f"),), submit=True, tid=self.fresh("k"))]
        if kind == "cp":
            other = r.choice([u for u in self.tensors if u != t])
            return [P.Call("cpa", (t, other), (other,))]
        if kind == "rs":
            s = self.fresh("s")
            return [P.Slice(s, t, r.choice((0, 4))), P.Call("rdb", (s, None), (self.fresh("f"),), submit=True,
                                                           tid=self.fresh("k"))]
        if kind == "ws":
            s = self.fresh("s")
            return [P.Slice(s, t, r.choice((0, 4))), P.Call("upb", (s,), (s,))]
        if kind == "hw":
            return [P.HostWrite(t, (row, 1), float(r.randint(1, 9)))]
        if self.slot >= P.SINK_SIZE:
            return []
        self.slot += 1
        return [P.HostRead(self.fresh("v"), t, (row, 1), self.slot - 1)]

    def manual(self, writers: bool) -> list:
        """A manual scope's body: atoms whose tasks each wait for the one before (a careful user's
        chain `m`), so every pair inside is the user's and ordered."""
        r = self.rng
        chain = self.fresh("m")
        body: list = [P.TidNone(chain)]
        for _ in range(r.randint(1, 3)):
            if self.budget <= 0:
                break
            self.budget -= 1
            kind = r.choice(("wr", "ow", "ws", "rd", "rs", "hw", "hr") if writers else ("rd", "rs", "hw", "hr", "wr"))
            body += [replace(st, submit=True, tid=chain, deps=(chain,)) if isinstance(st, P.Call) else st
                     for st in self.atom(kind)]
        return body

    def block(self, loop_vars: tuple, depth: int, n: int, writers: bool) -> list:
        """`n` items; `writers`: favour the writers (a scope or loop whose writers later code reads)."""
        out = []
        for _ in range(n):
            if self.budget <= 0:
                break
            out += self.item(loop_vars, depth, writers)
        return out

    def item(self, loop_vars: tuple, depth: int, writers: bool) -> list:
        r = self.rng
        self.budget -= 1
        weights = {"wr": 4 if writers else 2, "ow": 2 if writers else 1, "ws": 2 if writers else 1, "rd": 3, "cp": 1,
                   "rs": 1,
                   "hw": 1 if writers else 3, "hr": 1 if writers else 2}
        if depth < 3 and self.budget > 0:
            weights.update({"scope": 3, "loop": 4, "manual": 1})
            if loop_vars:
                weights["if"] = 2
        kind = r.choices(list(weights), list(weights.values()))[0]
        if kind == "scope":
            self.scoped = True
            return [P.Auto(tuple(self.block(loop_vars, depth + 1, r.randint(1, 3), True)))]
        if kind == "loop":
            var = "ijk"[len(loop_vars)]
            loop, trip = r.choice((("range", "n"), ("range", 2), ("range", "n"), ("parallel", 2)))
            body = self.block(loop_vars + (var,), depth + 1, r.randint(1, 3), True)
            return [P.Loop(loop, var, trip, tuple(body))] if body else []
        if kind == "manual":
            return [P.Manual(tuple(self.manual(writers)))]
        if kind == "if":
            cond = r.choice(((loop_vars[-1], "==", 0), (loop_vars[-1], ">=", 1)))
            then = self.block(loop_vars, depth + 1, r.randint(1, 2), writers)
            return [P.If(cond, tuple(then))] if then else []
        return self.atom(kind)


def generate(seed: int, max_size: Optional[int] = None) -> P.Program:
    """A random program: a block of writers in scopes and loops, then readers and host accesses
    after it, repeated (up to `max_size` items, 4..14 by default)."""
    rng = random.Random(seed)
    size = max_size if max_size is not None else rng.randint(4, 14)
    made = rng.random() < 1 / 3
    g = _Gen(rng, size, TENSORS + ("t",) if made else TENSORS)
    body: list = [P.Create("t", "A", init=0.0)] if made else []
    while g.budget > 0:
        g.budget -= 1
        g.scoped = g.scoped or rng.random() < 0.5
        if rng.random() < 0.5:
            inner = g.block(("i",), 1, rng.randint(1, 3), True)
            body.append(P.Loop(rng.choice(("range", "range", "parallel")), "i", rng.choice(("n", 2)),
                               tuple(inner or g.atom("wr"))))
        else:
            g.scoped = True
            inner = g.block((), 1, rng.randint(1, 3), True)
            body.append(P.Auto(tuple(inner or g.atom("wr"))))
        body += g.block((), 0, rng.randint(1, 3), False)
        body += g.atom("hw")
    auto_scope = not g.scoped
    return P.Program(P.kernels_used(KERNELS, body), tuple(body), auto_scope=auto_scope)


# ---- the exhaustive mode ----------------------------------------------------------------------

_CONDS = {"if_0": "==", "if_1": ">="}
_TRIPS = {"range_2": 2, "range_n": "n"}


def _valid(shape, in_loop: bool = False) -> bool:
    """No `if` outside every loop (it tests the innermost loop's variable)."""
    for item in shape:
        if item == "atom":
            continue
        block, inner = item
        if block in _CONDS and not in_loop:
            return False
        if not _valid(inner, in_loop or block in _TRIPS):
            return False
    return True


class _Builder(grammar.Builder):
    def __init__(self, fill: tuple):
        super().__init__(fill, ATOMS)
        self.scoped = False

    def block(self, item, loop_vars: tuple, chain: Optional[str]):
        block, inner = item
        if block == "scope":
            self.scoped = True
            return P.Auto(tuple(self.items(inner, loop_vars, chain)))
        if block in _TRIPS:
            var = "ijk"[len(loop_vars)]
            return P.Loop("range", var, _TRIPS[block], tuple(self.items(inner, loop_vars + (var,), chain)))
        if block in _CONDS:
            cond = (loop_vars[-1], _CONDS[block], 0 if block == "if_0" else 1)
            return P.If(cond, tuple(self.items(inner, loop_vars, chain)))
        m = self.fresh("m")
        return P.Manual((P.TidNone(m),) + tuple(self.items(inner, loop_vars, m)))

    def call(self, kernel: str, args: tuple, results: tuple, chain: Optional[str], reads: bool) -> P.Call:
        if chain:
            return P.Call(kernel, args, results, (), True, chain, (chain,))
        if reads:
            return P.Call(kernel, args, results, submit=True, tid=self.fresh("k"))
        return P.Call(kernel, args, results)

    def atom(self, atom: str, loop_vars: tuple, chain: Optional[str]) -> list:
        t = "a"
        pre: list = []
        if atom in ("ws", "rs", "hW", "hR"):
            t = self.fresh("s")
            pre = [P.Slice(t, "a", 0)]
        if atom == "wr":
            return [self.call("upa", (t,), (t,), chain, False)]
        if atom == "rd":
            return [self.call("rda", (t, None), (self.fresh("f"),), chain, True)]
        if atom == "ws":
            return pre + [self.call("upb", (t,), (t,), chain, False)]
        if atom == "rs":
            return pre + [self.call("rdb", (t, None), (self.fresh("f"),), chain, True)]
        if atom in ("hw", "hW"):
            return pre + [P.HostWrite(t, (1, 1), float(1 + self.k % 9))]
        return pre + [P.HostRead(self.fresh("v"), t, (1, 1), self.k % P.SINK_SIZE)]


def build(shape: tuple, fill: tuple) -> P.Program:
    """The program of one shape and its atom fill (indices into ATOMS, in the shape's order)."""
    b = _Builder(fill)
    body = tuple(b.items(shape, (), None))
    return P.Program(P.kernels_used(KERNELS, body), body, auto_scope=not b.scoped)


def _shapes(size: int) -> list:
    """The valid shapes of exactly `size` items, in their fixed order (grammar.ordered_shapes)."""
    return [sh for sh in grammar.in_order(EX_BLOCKS, EX_BLOCKS)(size) if _valid(sh)]


ENUMERATION = grammar.Framed(EX_BLOCKS, build, len(ATOMS), shapes=_shapes)
points, programs, count = ENUMERATION.points, ENUMERATION.programs, ENUMERATION.count
# every program of exactly `size` items (at most `max_atoms` atoms, of a shape one of `patterns`
# matches, when given), in the fixed order of the module doc
