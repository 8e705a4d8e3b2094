"""The adversarial tester's "assume" grammar: programs around the facts session 27's lean rules rest on.

Written from shared/spec/ (runtime-api.md section 11, dsl.md, reference-surface.md's `pl.while_`,
decisions.md) and README.md alone; none of the compiler's analyses read. Each program is built
around one claim about the runtime or programs, either where the claim holds (the compiler may
drop an edge) or in a near-miss where it does not (the edge must stay):

    par      a `pl.parallel` loop over tensor carries p, q (kept or swapped): constant trips 1..3
             (runs), or near-misses `n` (may not run) and 0 (never runs); iteration guards inside;
             maybe written `pl.parallel(start, stop, step)`, or inside a `pl.range(n)` loop
    scalar   a `pl.range` loop whose guards read the scalar parameters only (`if n > 1`,
             `if n % 2 == 0`, `if c == 1`, with an else), or near-misses reading the loop variable
             or a scalar carry the body steps (`k`, started from `c`), or the parameter `c` itself
             rebound in the body (`c = c + 1`, an implicit carry)
    dead     `if i > T - 1` in `pl.range(T)` (never taken), or near-misses `if i > T - 2` and
             `pl.range(n)` (taken for n > T); the same over `pl.range(start, stop, step)` with the
             last `i` in place of T - 1
    host     host reads and writes inside a `with pl.manual_scope():` (alone or in a loop) after
             AUTO writers, manual writers, and updates of a manual task's runtime-allocated output
             or of a `pl.create_tensor` made before the scope or in it
    tid      fences.py's TaskId programs restricted to `pl.parallel(2)` / `pl.range` in a manual
             scope, with `task_dummy` joins and deps on the loop's TaskId result
    create   a tensor created in a loop body (kept by a carry into the next iteration), or the
             near-miss of one created before the loop (the same tensor in every iteration, used
             after it); either maybe rebound in the body to a task's runtime-allocated output
    while    a `pl.while_` loop with a constant bound 0..5, or the near-miss bound `n`; its counter
             from 0 by 1, or from 0..2 by 1..3 under `<` or `<=`
    mdep     a carry swapped with a `manual_dep` tensor (tracked in the iterations it holds p), or
             near-misses where the names also trade places under an iteration guard

Every body is a random sequence of atoms over the loop's names:
    rd(t)  `f, k = pl.submit(self.rd, t)`   up(t) `t = self.up(t)`   wr(t) `t = self.wr(t)`
    mv(s, t) `t = self.rd(s, t)`            hr(t) a host read kept in `sink`   hw(t) a host write
and after the construct every result and parameter is read and written (carries.py's POST), so a
missing order shows as a hazard or a wrong value. The oracle is carries.py's (oracle.check_run
under rtmodel.py, values against the sequential semantics, latest-first order); `tid` programs
are fences.py's (careless user deps are the tester's invalid programs). Random only (`generate`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Optional

from . import carries, fences, grammar, loops2
from . import program as P
from .surface import While

CLAIMS = ("par", "scalar", "dead", "host", "tid", "create", "while", "mdep")
BLOCKS = ()
KERNELS = carries.KERNELS
Program = carries.Program
PARAMS = ("p", "q")


@dataclass(frozen=True)
class ScalarLoop(P.OneBlock):
    """`for i, (k, c0, c1) in pl.range(trip, init_values=(c, p, q)):` ... `kr, d0, d1 =
    pl.yield_(k + 1, y0, y1)`: a scalar carry `k` the body steps, read by the body's guards."""

    trip: object
    body: tuple
    carries: tuple
    yields: tuple
    results: tuple

    def render(self, p, d):
        inner = ", ".join(["k"] + [i for i, _ in self.carries])
        inits = ", ".join(["c"] + [x for _, x in self.carries])
        p.emit(d, f"for i, ({inner}) in pl.range({self.trip}, init_values=({inits})):", self)
        p.body(d + 1, self.body)
        p.emit(d + 1, f"{', '.join(('kr',) + self.results)} = pl.yield_({', '.join(('k + 1',) + self.yields)})")

    def run(self, r):
        trip = self.trip if isinstance(self.trip, int) else r.scalars[self.trip]
        r.scalars["k"] = r.scalars["c"]
        for inner, init in self.carries:
            r.env[inner] = r.env[init]
        for it in range(max(trip, 0)):
            r.scalars["i"] = it
            r.run(self.body)
            new = [r.env[y] for y in self.yields]
            for (inner, _), v in zip(self.carries, new):
                r.env[inner] = v
            r.scalars["k"] += 1
        for (inner, _), res in zip(self.carries, self.results):
            r.env[res] = r.env[inner]


@dataclass(frozen=True)
class Bump:
    """`c = c + 1`: the scalar parameter's name rebound (in a loop body, an implicit carry)."""

    var: str = "c"

    def render(self, p, d):
        p.emit(d, f"{self.var} = {self.var} + 1", self)

    def run(self, r):
        r.scalars[self.var] += 1


@dataclass(frozen=True)
class StepWhile(P.OneBlock):
    """`for (i, c0, c1) in pl.while_(init_values=(start, p, q)):` / `pl.cond(i OP bound)` / body /
    `n_done, d0, d1 = pl.yield_(i + step, ...)`: a counter from a constant by a constant step."""

    start: int
    step: int
    op: str
    bound: object
    body: tuple
    carries: tuple
    yields: tuple
    results: tuple

    def render(self, p, d):
        inner = ", ".join(["i"] + [x for x, _ in self.carries])
        inits = ", ".join([str(self.start)] + [x for _, x in self.carries])
        p.emit(d, f"for ({inner}) in pl.while_(init_values=({inits})):", self)
        p.emit(d + 1, f"pl.cond(i {self.op} {self.bound})")
        p.body(d + 1, self.body)
        p.emit(d + 1, f"{', '.join(('n_done',) + self.results)} = pl.yield_({', '.join((f'i + {self.step}',) + self.yields)})")

    def run(self, r):
        bound = self.bound if isinstance(self.bound, int) else r.scalars[self.bound]
        for inner, init in self.carries:
            r.env[inner] = r.env[init]
        i = self.start
        while i < bound or (self.op == "<=" and i == bound):
            r.scalars["i"] = i
            r.run(self.body)
            new = [r.env[y] for y in self.yields]
            for (inner, _), v in zip(self.carries, new):
                r.env[inner] = v
            i += self.step
        for (inner, _), res in zip(self.carries, self.results):
            r.env[res] = r.env[inner]


@dataclass(frozen=True)
class SpanLoop(P.OneBlock):
    """`for i, (c0, c1) in pl.range|parallel(start, stop, step, init_values=(p, q)):` ... yield."""

    kind: str
    start: int
    stop: object
    step: int
    body: tuple
    carries: tuple
    yields: tuple
    results: tuple

    def render(self, p, d):
        inner = ", ".join(x for x, _ in self.carries)
        inits = ", ".join(x for _, x in self.carries)
        p.emit(d, f"for i, ({inner}) in pl.{self.kind}({self.start}, {self.stop}, {self.step}, init_values=({inits})):",
               self)
        p.body(d + 1, self.body)
        p.emit(d + 1, f"{', '.join(self.results)} = pl.yield_({', '.join(self.yields)})")

    def run(self, r):
        stop = self.stop if isinstance(self.stop, int) else r.scalars[self.stop]
        inst = r.loop_instances
        r.loop_instances += 1
        for inner, init in self.carries:
            r.env[inner] = r.env[init]
        for it in range(self.start, stop, self.step):
            r.scalars["i"] = it
            if self.kind == "parallel":
                r.parallel.append((inst, it))
            r.run(self.body)
            if self.kind == "parallel":
                r.parallel.pop()
            new = [r.env[y] for y in self.yields]
            for (inner, _), v in zip(self.carries, new):
                r.env[inner] = v
        for (inner, _), res in zip(self.carries, self.results):
            r.env[res] = r.env[inner]


def _spanned(b: "_B", stmts: list) -> list:
    """`stmts` with its first statement, a carried loop, written as a SpanLoop over a random start
    0..2, step 1..3 and a stop that keeps the loop's last iteration (`i` of its first iterations
    when the stop is `n`)."""
    loop = stmts[0]
    start, step = b.rnd.randint(0, 2), b.rnd.randint(1, 3)
    stop = loop.trip if not isinstance(loop.trip, int) else start + step * (loop.trip - 1) + 1
    return [SpanLoop(loop.kind, start, stop, step, loop.body, loop.carries, loop.yields, loop.results)] + stmts[1:]


class _B(grammar.Fresh):
    def __init__(self, rnd: random.Random):
        self.rnd = rnd

    def rd(self, t: str) -> P.Call:
        return P.Call("rd", (t, None), (self.fresh("f"),), (), True, self.fresh("k"))

    def atom(self, names: tuple, host: bool = True, ops=None) -> list:
        ops = ops or (("rd", "up", "wr", "mv", "hr", "hw") if host else ("rd", "up", "wr", "mv"))
        op = self.rnd.choice(ops)
        t = self.rnd.choice(names)
        if op == "rd":
            return [self.rd(t)]
        if op in ("up", "wr"):
            return [P.Call(op, (t,), (t,))]
        if op == "mv":
            others = [x for x in names if x != t]
            if not others:
                return [P.Call("up", (t,), (t,))]
            return [_mv(t, self.rnd.choice(others))]
        if op == "hr":
            return [P.HostRead(self.fresh("h"), t, (1, 1), self.k % P.SINK_SIZE)]
        return [P.HostWrite(t, (1, 1), float(2 + self.k % 5))]

    def items(self, names: tuple, n: int, guards: tuple = (), host: bool = True) -> list:
        out = []
        for _ in range(n):
            out += self.atom(names, host)
        for _ in range(self.rnd.randint(0, 2) if guards and out else 0):
            lo = self.rnd.randrange(len(out))
            hi = self.rnd.randrange(lo, len(out)) + 1
            g = self.rnd.choice(guards)
            out[lo:hi] = [g(tuple(out[lo:hi]), tuple(self.items(names, 1, (), host)) if self.rnd.random() < 0.3 else ())]
        return out

    def post(self, results: tuple, params: tuple = PARAMS) -> list:
        first, second = (results, params) if self.rnd.random() < 0.5 else (params, results)
        reads = [self.rd(t) for t in first]
        writes = [P.Call("wr", (t,), (t,)) for t in second]
        tail = [P.HostRead(self.fresh("h"), t, (1, 1), self.k % P.SINK_SIZE) for t in params]
        return (reads + writes if self.rnd.random() < 0.5 else writes + reads) + tail


def _mv(s: str, t: str) -> P.Call:
    return P.Call("rd", (s, t), (t,))


def _if(cond):
    return lambda then, orelse: P.If(cond, then, orelse)


def _parity(var: str, rem: int):
    return lambda then, orelse: loops2.Parity(var, rem, then)


SETTINGS_N = tuple((n, c) for n in range(5) for c in range(3))


def _prog(body, extra=PARAMS, settings=SETTINGS_N, cls=Program) -> Program:
    body = tuple(body)
    return cls(P.kernels_used(KERNELS, body + fences._calls(body)), body, extra=extra, settings=settings)


def _carried(b: _B, kind: str, trip, guards, var="i", swap=None, loop_pre=()) -> list:
    swap = b.rnd.random() < 0.5 if swap is None else swap
    body = tuple(loop_pre) + tuple(b.items(("c0", "c1"), b.rnd.randint(1, 4), guards))
    loop = P.Loop(kind, var, trip, body, carries=(("c0", "p"), ("c1", "q")),
                  yields=("c1", "c0") if swap else ("c0", "c1"), results=("d0", "d1"))
    return [loop] + b.post(("d0", "d1"))


ITER_GUARDS = (_if(("i", "==", 0)), _if(("i", ">=", 1)), _parity("i", 1))
SCALAR_GUARDS = (_if(("n", ">", 1)), _parity("n", 0), _parity("n", 1), _if(("c", "==", 1)))


def gen_par(b: _B) -> Program:
    trip = b.rnd.choice((1, 2, 3, 2, 3, "n", 0))
    stmts = _carried(b, "parallel", trip, ITER_GUARDS if b.rnd.random() < 0.5 else ())
    if b.rnd.random() < 0.25:
        return _prog(_spanned(b, stmts))
    if b.rnd.random() < 0.4:      # the parallel loop inside a pl.range(n) loop over the same carries
        inner = stmts[0]
        pre = tuple(b.items(("c0", "c1"), b.rnd.randint(0, 2), host=False))
        post = tuple(b.items(("c0", "c1"), b.rnd.randint(0, 2), host=True))
        inner = P.Loop("parallel", "j", inner.trip, tuple(_renamed(inner.body)),
                       carries=(("e0", "c0"), ("e1", "c1")), yields=tuple("e" + y[1] for y in inner.yields),
                       results=("c0", "c1"))
        outer = P.Loop("range", "i", "n", pre + (inner,) + post, carries=(("c0", "p"), ("c1", "q")),
                       yields=("c1", "c0") if b.rnd.random() < 0.5 else ("c0", "c1"), results=("d0", "d1"))
        stmts = [outer] + stmts[1:]
    return _prog(stmts)


def _renamed(stmts) -> list:
    """A body over c0, c1 and `i` rewritten over e0, e1 and `j` (an inner loop's)."""
    ren = {"c0": "e0", "c1": "e1", "i": "j"}
    out = []
    for s in stmts:
        if isinstance(s, P.Call):
            s = P.Call(s.kernel, tuple(ren.get(a, a) for a in s.args), tuple(ren.get(a, a) for a in s.results),
                       s.nodep, s.submit, s.tid, s.deps)
        elif isinstance(s, P.HostRead):
            s = P.HostRead(s.var, ren.get(s.tensor, s.tensor), s.idx, s.slot, s.live)
        elif isinstance(s, P.HostWrite):
            s = P.HostWrite(ren.get(s.tensor, s.tensor), s.idx, s.value)
        elif isinstance(s, P.If):
            s = P.If((ren.get(s.cond[0], s.cond[0]),) + s.cond[1:], tuple(_renamed(s.then)), tuple(_renamed(s.orelse)))
        elif isinstance(s, loops2.Parity):
            s = loops2.Parity(ren.get(s.var, s.var), s.rem, tuple(_renamed(s.then)))
        out.append(s)
    return out


def gen_scalar(b: _B) -> Program:
    near = b.rnd.random() < 0.4
    trip = b.rnd.choice(("n", 2, 3))
    if near and b.rnd.random() < 0.5:
        guards = (_if(("k", ">", 1)), _if(("k", "==", 1)), _parity("k", 0))
        body = tuple(b.items(("c0", "c1"), b.rnd.randint(1, 4), guards))
        swap = b.rnd.random() < 0.5
        loop = ScalarLoop(trip, body, (("c0", "p"), ("c1", "q")), ("c1", "c0") if swap else ("c0", "c1"), ("d0", "d1"))
        return _prog([loop] + b.post(("d0", "d1")))
    if near and b.rnd.random() < 0.5:     # `c = c + 1` in the body: `if c == 1` reads a carry
        stmts = _carried(b, "range", trip, SCALAR_GUARDS)
        loop = stmts[0]
        body = list(loop.body)
        body.insert(b.rnd.randrange(len(body) + 1), Bump())
        return _prog([P.Loop(loop.kind, loop.var, loop.trip, tuple(body), loop.carries, loop.yields, loop.results)]
                     + stmts[1:])
    guards = SCALAR_GUARDS + (ITER_GUARDS if near else ())
    return _prog(_carried(b, "range", trip, guards))


def gen_dead(b: _B) -> Program:
    t = b.rnd.choice((2, 3, 4))
    live = b.rnd.random() < 0.4
    trip = "n" if b.rnd.random() < 0.3 else t
    if b.rnd.random() < 0.4:      # pl.range(start, stop, step): the last i is start + step * (T - 1)
        stmts = _spanned(b, _carried(b, "range", trip, ()))
        loop = stmts[0]
        last = loop.start + loop.step * (t - 1)
        guards = (_if(("i", ">", last - (1 if live else 0))), _if(("i", ">=", last + (0 if live else 1))))
        body = tuple(b.items(("c0", "c1"), b.rnd.randint(1, 4), guards))
        return _prog([loop.with_blocks([body])] + stmts[1:])
    guards = (_if(("i", ">", t - (2 if live else 1))), _if(("i", ">=", t - (1 if live else 0))))
    return _prog(_carried(b, "range", trip, guards))


def _chained(stmts: list) -> list:
    """A manual scope's tasks as a careful user writes them: each `pl.submit` waits for the one
    before (`deps=[u]`, `u` the last TaskId; fences.Submit records the user's deps)."""
    out = [fences.NoneTid("u")]
    for s in stmts:
        if isinstance(s, P.Call):
            s = fences.Submit(P.Call(s.kernel, s.args, s.results, submit=True, tid="u", deps=("u",)))
        out.append(s)
    return out


def gen_host(b: _B) -> Program:
    made = b.rnd.choice((None, None, "before", "inside"))     # a pl.create_tensor `t`, before or in the scope
    make = P.Create("t", "B", init=b.rnd.choice((None, 1.0)))
    names = PARAMS + ("w",) + (("t",) if made else ())
    pre = ([make] if made == "before" else []) + b.items(names if made == "before" else PARAMS + ("w",),
                                                         b.rnd.randint(0, 3), host=False)
    inside = [make] if made == "inside" else []
    for _ in range(b.rnd.randint(2, 5)):
        if b.rnd.random() < 0.25:
            g = b.fresh("g")
            inside.append(P.Call("rd", (b.rnd.choice(names), None), (g,)))
            inside += b.items((g,), b.rnd.randint(0, 2), host=True)
        else:
            inside += b.atom(names, host=True)
    inside += [P.HostRead(b.fresh("h"), b.rnd.choice(names), (1, 1), b.k % P.SINK_SIZE)]
    scope = P.Manual(tuple(_chained(inside)))
    if b.rnd.random() < 0.4:      # the scope in a loop: its instances are the compiler's to order
        scope = P.Loop("range", "i", b.rnd.choice(("n", 2)), (scope,) + tuple(b.items(PARAMS, b.rnd.randint(0, 2))))
    after = [b.rd("t"), P.HostRead(b.fresh("h"), "t", (1, 1), b.k % P.SINK_SIZE)] if made == "before" else []
    body = pre + [scope] + after + b.post((), PARAMS)
    return _prog(body, settings=((0, 0), (1, 0), (2, 1), (3, 1)), cls=fences.Program)


def gen_tid(b: _B) -> Program:
    rnd = b.rnd
    frame = fences.Frame("manual", rnd.choice(("par2", "par2", "range", "while", "phases")))
    while True:
        lay = {r: tuple(rnd.choice(fences.ALPHABET[r]) for _ in range(rnd.randint(0, 2)))
               for r in ("pre", "post")}
        lay["mid"] = tuple(rnd.choice(fences.MID_ATOMS + (("jn", "", ""),) * 3) for _ in range(rnd.randint(1, 4)))
        lay["body"] = fences._random_body(rnd, rnd.randint(1, 3), tuple(fences.GUARDS))
        prog = fences.build(frame, **lay)
        if fences.careless(prog) is None:
            return prog


def gen_create(b: _B) -> Program:
    outside = b.rnd.random() < 0.35
    init = b.rnd.choice((None, 1.0))
    make = P.Create("t", "B", init=init)
    trip = b.rnd.choice(("n", 2, 3))
    items = b.items(("c0", "c1", "t"), b.rnd.randint(2, 5), ITER_GUARDS)
    if b.rnd.random() < 0.4:      # `t` rebound to a task's runtime-allocated output (a new tensor each time)
        items.insert(b.rnd.randrange(len(items) + 1), P.Call("rd", (b.rnd.choice(("c0", "c1")), None), ("t",), (), True, b.fresh("k")))
    body = tuple(([] if outside else [make]) + items)
    y = b.rnd.choice((("c0", "c1"), ("t", "c1"), ("c1", "t"), ("c1", "c0"), ("t", "c0")))
    loop = P.Loop("range", "i", trip, body, carries=(("c0", "p"), ("c1", "q")), yields=y, results=("d0", "d1"))
    head = ([make] if outside else []) + [loop]
    after = []
    if outside:       # the name made before the loop, maybe rebound in it (an implicit carry), used after
        after = [b.rd("t"), P.Call("up", ("t",), ("t",)), P.HostRead(b.fresh("h"), "t", (1, 1), b.k % P.SINK_SIZE)]
        b.rnd.shuffle(after)
    return _prog(head + after + b.post(("d0", "d1")))


def gen_while(b: _B) -> Program:
    bound = b.rnd.choice((0, 1, 2, 3, 2, 3, 4, 5, "n"))
    swap = b.rnd.random() < 0.5
    body = tuple(b.items(("c0", "c1"), b.rnd.randint(1, 4), ITER_GUARDS))
    yields = ("c1", "c0") if swap else ("c0", "c1")
    if b.rnd.random() < 0.5:      # a start of 0..2, a step of 1..3, `<` or `<=`
        loop = StepWhile(b.rnd.randint(0, 2), b.rnd.randint(1, 3), b.rnd.choice(("<", "<=")), bound, body,
                         (("c0", "p"), ("c1", "q")), yields, ("d0", "d1"))
    else:
        loop = While("i", bound, body, carries=(("c0", "p"), ("c1", "q")), yields=yields, results=("d0", "d1"))
    return _prog([loop] + b.post(("d0", "d1")))


def gen_mdep(b: _B) -> Program:
    make = P.Create("m", "B", init=1.0, manual_dep=True)
    trip = b.rnd.choice(("n", 2, 3))
    body = b.items(("c0", "c1"), b.rnd.randint(1, 4), ITER_GUARDS)
    yields = ("c1", "c0")
    if b.rnd.random() < 0.5:      # near-miss: the names trade places in some iterations only
        swap = P.Swap("c0", "c1", "tmp")
        body.insert(b.rnd.randrange(len(body) + 1), b.rnd.choice(ITER_GUARDS)((swap,), ()))
        yields = b.rnd.choice((("c1", "c0"), ("c0", "c1")))
    loop = P.Loop("range", "i", trip, tuple(body), carries=(("c0", "p"), ("c1", "m")),
                  yields=yields, results=("d0", "d1"))
    post = [b.rd("d0"), b.rd("d1"), b.rd("p"), P.Call("wr", ("p",), ("p",)),
            P.HostRead(b.fresh("h"), "p", (1, 1), b.k % P.SINK_SIZE)]
    return _prog([make, loop] + post, extra=("p",))


GENERATORS = {"par": gen_par, "scalar": gen_scalar, "dead": gen_dead, "host": gen_host, "tid": gen_tid,
              "create": gen_create, "while": gen_while, "mdep": gen_mdep}


def generate(seed: int, max_size: Optional[int] = None, claim: Optional[str] = None) -> Program:
    """A random program of one claim (`claim`, or one drawn from the seed)."""
    rnd = random.Random(seed)
    claim = claim or CLAIMS[seed % len(CLAIMS)]
    return GENERATORS[claim](_B(rnd))


def programs(size: int, max_atoms=None, patterns=()):
    raise ValueError("the assume grammar is random only (--seconds N --seed S)")


def count(size: int, max_atoms=None, patterns=()) -> int:
    raise ValueError("the assume grammar is random only")
