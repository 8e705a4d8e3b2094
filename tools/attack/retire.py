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
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Optional

from . import program as P

BLOCKS = ()      # random programs only: no --shapes patterns
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
