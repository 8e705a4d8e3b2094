"""A random generator of valid abstract programs (program.py) over the whole DSL surface this
tester knows: kernel calls and submits (In/Out/InOut, runtime-allocated outputs, pl.no_dep),
host element reads (used, and dead: their value unused) and writes, create_tensor (init values,
manual_dep), slices, transposes, pl.assemble, aliases and swaps, pl.range and pl.parallel loops
(static or scalar trips, explicit init_values with swapped yields), if/else on scalars and loop
variables, manual scopes (with a careful user's dependency chain: every task of a manual scope
waits for the one before it) and, in functions with auto_scope=False, pl.scope().

Validity rules the generator keeps (as a user would): a name keeps one shape; the In parameter
`x` and views of it are never written; names defined in a loop body or one branch only are not
used after it; a pl.parallel body rebinds no outer name to another buffer; a pl.parallel loop in
a manual scope has a static trip; pl.scope() is never inside a manual scope.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Optional

from . import program as P


@dataclass
class Ctx:
    names: dict                       # usable tensor name -> shape key
    readonly: set
    chain: Optional[str] = None       # the manual scope's TaskId chain variable
    in_parallel: bool = False
    loop_vars: tuple = ()
    depth: int = 0
    created: list = field(default_factory=list)   # (name, names defined before it) in this block

    def child(self, **kw) -> "Ctx":
        c = replace(self, names=dict(self.names), readonly=set(self.readonly), created=[])
        for k, v in kw.items():
            setattr(c, k, v)
        return c


class Gen:
    def __init__(self, rng: random.Random, size: int, auto_scope: bool = True):
        self.rng = rng
        self.budget = size
        self.auto_scope = auto_scope
        self.kernels: dict = {}           # params tuple -> Kernel
        self.counter = 0
        self.slot = 0

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def kernel(self, params: tuple) -> P.Kernel:
        if params not in self.kernels:
            self.kernels[params] = P.Kernel(f"k{len(self.kernels)}", params)
        return self.kernels[params]

    # -- pieces ------------------------------------------------------------------------------

    def pick(self, ctx: Ctx, shape: str, writable: bool) -> Optional[str]:
        cands = sorted(n for n, s in ctx.names.items() if s == shape and not (writable and n in ctx.readonly))
        return self.rng.choice(cands) if cands else None

    def call(self, ctx: Ctx) -> list:
        r = self.rng
        nparams = r.choice((1, 2, 2, 2, 3, 3))
        params, args = [], []
        for i in range(nparams):
            last = i == nparams - 1
            d = r.choice(("in", "in", "out", "inout", "inout")) if not last else r.choice(("out", "inout", "inout"))
            shape = r.choice(("A", "A", "B"))
            params.append((d, shape))
        if all(d == "in" for d, _ in params):
            params[-1] = ("inout", params[-1][1])
        # a suffix of Out parameters may be left to the runtime (pl.submit only)
        cut = nparams
        while cut > 0 and params[cut - 1][0] == "out":
            cut -= 1
        if cut < nparams and r.random() < (0.6 if ctx.chain is not None else 0.25):
            cut = r.randint(cut, nparams - 1)
        else:
            cut = nparams
        for i, (d, shape) in enumerate(params):
            if i >= cut:
                args.append(None)
                continue
            name = self.pick(ctx, shape, writable=d != "in")
            if name is None:
                return []
            args.append(name)
        written = [a for (d, _), a in zip(params, args) if d != "in" and a is not None]
        if len(written) != len(set(written)):
            return []
        k = self.kernel(tuple(params))
        results = []
        for pos in k.results:
            a = args[pos]
            if a is None:
                res = self.fresh("f")
            elif not ctx.in_parallel and r.random() < 0.1:
                res = self.fresh("r")
            else:
                res = a
            results.append(res)
        nodep = tuple(d == "in" and a is not None and r.random() < 0.08 for (d, _), a in zip(params, args))
        submit = ctx.chain is not None or r.random() < 0.15 or None in args
        if submit:
            tid = ctx.chain or self.fresh("t")
            deps = (ctx.chain,) if ctx.chain else ()
            call = P.Call(k.name, tuple(args), tuple(results), nodep if any(nodep) else (), True, tid, deps)
        else:
            call = P.Call(k.name, tuple(args), tuple(results), nodep if any(nodep) else ())
        for pos, res in zip(k.results, results):
            ctx.names[res] = params[pos][1]
            self.rebound(ctx, res)
        return [call]

    def rebound(self, ctx: Ctx, name: str) -> None:
        """`name` now holds a new value: it no longer existed before this block's creates."""
        if self.rng.random() < 0.85:
            ctx.created = [(src, before - {name}) for src, before in ctx.created]

    @staticmethod
    def not_created(ctx: Ctx, name: str) -> None:
        """`name` now names another tensor than the one created: not an assemble source."""
        ctx.created = [(src, before) for src, before in ctx.created if src != name]

    def reader(self, ctx: Ctx) -> list:
        """A task that only reads an existing tensor (its output is runtime-allocated)."""
        shape = self.rng.choice(("A", "B"))
        src = self.pick(ctx, shape, writable=False)
        if src is None:
            return []
        k = self.kernel((("in", shape), ("out", self.rng.choice(("A", "B")))))
        res = self.fresh("f")
        ctx.names[res] = k.params[1][1]
        tid = ctx.chain or self.fresh("t")
        return [P.Call(k.name, (src, None), (res,), (), True, tid, (ctx.chain,) if ctx.chain else ())]

    def host_read(self, ctx: Ctx, live: bool = True) -> list:
        name = self.rng.choice(sorted(ctx.names))
        shape = P.SHAPES[ctx.names[name]]
        idx = (self.rng.randrange(shape[0]), self.rng.randrange(shape[1]))
        self.slot = (self.slot + 1) % P.SINK_SIZE
        return [P.HostRead(self.fresh("v"), name, idx, self.slot, live)]

    def dead_read(self, ctx: Ctx) -> list:
        """A host read whose value nothing uses: it observes nothing, so it waits for nothing."""
        return self.host_read(ctx, live=False)

    def host_write(self, ctx: Ctx) -> list:
        shape = self.rng.choice(("A", "B"))
        name = self.pick(ctx, shape, writable=True)
        if name is None:
            return []
        d0, d1 = P.SHAPES[shape]
        return [P.HostWrite(name, (self.rng.randrange(d0), self.rng.randrange(d1)),
                            float(self.rng.randrange(1, 9)))]

    def create(self, ctx: Ctx) -> list:
        r = self.rng
        shape = r.choice(("A", "B", "B"))
        name = self.fresh("t")
        init = r.choice((None, None, 0.0, 0.5))
        s = P.Create(name, shape, init, r.random() < 0.05)
        if shape == "B":
            ctx.created.append((name, frozenset(ctx.names)))
        ctx.names[name] = shape
        return [s]

    def view(self, ctx: Ctx) -> list:
        r = self.rng
        if r.random() < 0.6:
            src = self.pick(ctx, "A", writable=False)
            if src is None:
                return []
            rows = (0, 2, 4) + tuple((v, step) for v in ctx.loop_vars for step in (2, 4))
            s = P.Slice(self.fresh("s"), src, r.choice(rows))
        else:
            src = self.pick(ctx, "B", writable=False)
            if src is None:
                return []
            s = P.Transpose(self.fresh("s"), src)
        ctx.names[s.name] = "B"
        if src in ctx.readonly:
            ctx.readonly.add(s.name)
        return [s]

    def assemble(self, ctx: Ctx) -> list:
        opts = []
        for src, before in ctx.created:
            if src not in ctx.names:
                continue
            for t in sorted(before):
                if ctx.names.get(t) == "A" and t not in ctx.readonly:
                    opts.append((src, t))
        if not opts or ctx.in_parallel:
            return []
        src, tgt = self.rng.choice(opts)
        if self.rng.random() < 0.9:
            del ctx.names[src]          # most users stop using the source once it is assembled
        self.rebound(ctx, tgt)
        return [P.Assemble(tgt, src, self.rng.choice((0, 2, 4)))]

    def alias(self, ctx: Ctx) -> list:
        if ctx.in_parallel:
            return []
        r = self.rng
        name = r.choice(sorted(ctx.names))
        if r.random() < 0.5 or name in ctx.readonly:
            new = self.fresh("r")
            ctx.names[new] = ctx.names[name]
            if name in ctx.readonly:
                ctx.readonly.add(new)
            return [P.Alias(new, name)]
        shape = ctx.names[name]
        other = self.pick(ctx, shape, writable=True)
        if other is None or other == name:
            return []
        self.rebound(ctx, other)
        self.not_created(ctx, other)
        return [P.Alias(other, name)]

    def swap(self, ctx: Ctx) -> list:
        if ctx.in_parallel:
            return []
        shape = self.rng.choice(("A", "B"))
        cands = sorted(n for n, s in ctx.names.items() if s == shape and n not in ctx.readonly)
        if len(cands) < 2:
            return []
        p, q = self.rng.sample(cands, 2)
        tmp = self.fresh("o")
        ctx.names[tmp] = shape
        self.rebound(ctx, p)
        self.rebound(ctx, q)
        self.not_created(ctx, p)
        self.not_created(ctx, q)
        return [P.Swap(p, q, tmp)]

    def barrier(self, ctx: Ctx) -> list:
        return [P.Barrier(ctx.chain)] if ctx.chain else []

    def cond(self, ctx: Ctx) -> tuple:
        opts = [("c", ">", 0), ("c", "==", 0), ("n", ">", 1)]
        for v in ctx.loop_vars:
            opts += [(v, ">", 0), (v, "==", 0)]
        return self.rng.choice(opts)

    # -- blocks ------------------------------------------------------------------------------

    def block(self, ctx: Ctx, budget: int) -> list:
        saved = self.budget
        self.budget = budget
        out = []
        while self.budget > 0:
            out += self.stmt(ctx)
        self.budget = saved - budget
        return out

    def merge_if(self, ctx: Ctx, a: Ctx, b: Ctx) -> None:
        for n in list(a.names):
            if n not in ctx.names and b.names.get(n) == a.names[n]:
                ctx.names[n] = a.names[n]
                if n in a.readonly or n in b.readonly:
                    ctx.readonly.add(n)

    def loop(self, ctx: Ctx) -> list:
        r = self.rng
        kind = "parallel" if r.random() < 0.35 else "range"
        if ctx.chain is not None and kind == "parallel":
            trip = r.choice((1, 2, 2))
        else:
            trip = r.choice(("n", "n", 2, 1))
        var = self.fresh("i")
        inner = ctx.child(in_parallel=ctx.in_parallel or kind == "parallel", loop_vars=ctx.loop_vars + (var,),
                          depth=ctx.depth + 1)
        carries = ()
        if kind == "range" and not ctx.in_parallel and r.random() < 0.3:
            shape = r.choice(("A", "B"))
            cands = sorted(n for n, s in ctx.names.items() if s == shape and n not in ctx.readonly)
            if cands:
                k = min(len(cands), r.choice((1, 2, 2)))
                inits = r.sample(cands, k)
                carries = tuple((self.fresh("p"), init) for init in inits)
                for inn, _ in carries:
                    inner.names[inn] = shape
        body = self.block(inner, max(1, min(self.budget, r.randint(1, 4))))
        if not carries:
            return [P.Loop(kind, var, trip, tuple(body))]
        shape = ctx.names[carries[0][1]]
        pool = sorted(n for n, s in inner.names.items() if s == shape and n not in inner.readonly)
        inns = [inn for inn, _ in carries]
        if len(inns) == 2 and r.random() < 0.6:
            yields = (inns[1], inns[0])
        else:
            yields = tuple(r.choice(pool) for _ in inns)
        results = tuple(self.fresh("r") for _ in inns)
        for res in results:
            ctx.names[res] = shape
        return [P.Loop(kind, var, trip, tuple(body), carries, yields, results)]

    def if_(self, ctx: Ctx) -> list:
        r = self.rng
        c = self.cond(ctx)
        a = ctx.child(depth=ctx.depth + 1)
        then = self.block(a, max(1, min(self.budget, r.randint(1, 3))))
        b = ctx.child(depth=ctx.depth + 1)
        orelse = self.block(b, min(self.budget, r.randint(0, 2))) if r.random() < 0.6 else []
        self.merge_if(ctx, a, b)
        return [P.If(c, tuple(then), tuple(orelse))]

    def manual(self, ctx: Ctx) -> list:
        r = self.rng
        chain = ctx.chain or self.fresh("m")
        inner = ctx.child(chain=chain, depth=ctx.depth + 1)
        body = [] if ctx.chain else [P.TidNone(chain)]
        body += self.block(inner, max(1, min(self.budget, r.randint(1, 5))))
        ctx.names.update(inner.names)
        ctx.readonly |= inner.readonly
        return [P.Manual(tuple(body))]

    def auto(self, ctx: Ctx) -> list:
        inner = ctx.child(depth=ctx.depth + 1)
        body = self.block(inner, max(1, min(self.budget, self.rng.randint(1, 4))))
        ctx.names.update(inner.names)
        ctx.readonly |= inner.readonly
        return [P.Auto(tuple(body))]

    def stmt(self, ctx: Ctx) -> list:
        r = self.rng
        self.budget -= 1
        choices = [(self.call, 10), (self.reader, 3), (self.host_read, 3), (self.dead_read, 1), (self.host_write, 2),
                   (self.create, 2), (self.view, 2), (self.assemble, 2), (self.alias, 1), (self.swap, 1), (self.barrier, 1)]
        if ctx.depth < 3 and self.budget > 0:
            choices += [(self.loop, 3), (self.if_, 2)]
            if ctx.chain is None:   # (the DSL refuses a manual scope nested in another: frontend-behaviour.md 3.10)
                choices.append((self.manual, 3))
            if not self.auto_scope and ctx.chain is None:
                choices.append((self.auto, 2))
        fns, weights = zip(*choices)
        for _ in range(8):
            out = r.choices(fns, weights)[0](ctx)
            if out:
                return out
        return []


def generate(seed: int, size: Optional[int] = None) -> P.Program:
    rng = random.Random(seed)
    size = size if size is not None else rng.randint(2, 12)
    g = Gen(rng, size, auto_scope=rng.random() < 0.8)
    ctx = Ctx(names={"x": "A", "a": "A", "b": "A", "w": "B"}, readonly={"x"})
    body = g.block(ctx, size)
    return P.Program(tuple(g.kernels.values()), tuple(body), g.auto_scope)
