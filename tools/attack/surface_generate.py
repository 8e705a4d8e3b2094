"""A random generator of valid programs over issue 22's DSL surface (surface.py) combined with
generate.py's: `pl.spmd_submit`, `with pl.spmd` and `for i in pl.spmd` regions, `with pl.at` blocks (and the orchestration
function as a plain `@pl.function`), `with pl.cluster` blocks, `pl.slice` / `pl.reshape` / `pl.transpose` /
`pl.tensor.view` (views of views), Inline functions, call-site `attrs=`, `pl.dump_tag` and
`dumps=`, a kernel call as an argument and as the returned value, `allow_early_resolve`,
`pl.const`, `tuple[...]` results, `pl.unroll`, `pl.while_` / `pl.cond` with a bound read from a
host-written tensor, manual scopes whose chain starts at a TaskId made before them.

Validity rules beyond generate.py's: a loop variable's slice step is 1 or 2 (trips reach 3);
a reshape's source is contiguous (a name never bound to a transpose); an Inline function is not
called in a manual scope (its tasks would not wait for the scope's chain), and its body rebinds
no parameter in a pl.parallel loop (the caller's name would be rebound there); an outlined
block's source and target are different names.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Optional

from . import program as P
from . import surface as S
from .surface_blocks import Blk, BlockShapes
from .generate import Ctx, Gen


@dataclass
class SCtx(Ctx):
    tids: tuple = ()            # TaskIds bound in this block or around it
    ints: tuple = ()            # INT64 scalars read from `cnt`
    strided: frozenset = frozenset()   # names that may hold a transposed (non-contiguous) view
    in_unroll: bool = False     # copies of the body: an outlined block's name_hint would repeat
    cnt_set: frozenset = frozenset()   # `cnt` elements surely host-written before this point


class SurfaceGen(BlockShapes, Gen):
    def __init__(self, rng: random.Random, size: int, auto_scope: bool = True):
        super().__init__(rng, size, auto_scope)
        self.functions: list = []
        # draws that later forms added (the `for ... in pl.spmd` loop form) take from their own
        # generator, so that a seed's other draws, and so its program's shape, stay as they were
        self.forms = random.Random(0)
        self.outlined = 0
        self.inline_depth = 0
        # pl.cluster blocks draw from their own generator (seeded per seed by `generate`), so that
        # a seed without one is the program it was before they were added
        self.clusters = random.Random(0)
        # blocks of several statements and the loops around them (surface_blocks.py), the same way
        self.bshapes = random.Random(0)

    # -- decorated calls -----------------------------------------------------------------------

    def call(self, ctx: SCtx) -> list:
        out = super().call(ctx)
        if not out:
            return out
        c = out[0]
        r = self.rng
        k = self.prog_kernel(c.kernel)
        kw = []
        if r.random() < 0.15 and None not in c.args and not any(c.nodep):
            dirs = {"in": "input", "inout": "inout", "out": "output_existing"}
            kw.append('attrs={"arg_directions": [' + ", ".join(f"pl.adir.{dirs[d]}" for d, _ in k.params) + "]}")
        elif r.random() < 0.25 and (ctx.tids or ctx.chain):
            kw.append('attrs={"compiler_manual_dep_edges": [' + (ctx.chain or r.choice(ctx.tids)) + "]}")
        if c.submit and r.random() < 0.2:
            kw.append("allow_early_resolve=True")
        passed = [a for a in c.args if a is not None]
        if c.submit and passed and r.random() < 0.15:
            kw.append(f"dumps=[{r.choice(passed)}]")
        spmd = None
        if c.submit and r.random() < 0.3:
            spmd = r.choice(("2", "n + 1", "c + 1", S.Const(4)))
        deps = c.deps
        if c.submit and ctx.tids and r.random() < 0.3:     # a TaskId from outside the manual scope too
            deps = c.deps + (r.choice(ctx.tids),)
        c = P.Call(c.kernel, c.args, c.results, c.nodep, c.submit, c.tid, deps, spmd, tuple(kw))
        if c.submit and not ctx.chain:
            ctx.tids = ctx.tids + (c.tid,)
        for res in c.results:
            ctx.strided = ctx.strided - {res} | ({res} if any(a in ctx.strided for a in c.args if a) else set())
        return [c]

    def prog_kernel(self, name: str) -> P.Kernel:
        return next(k for k in self.kernels.values() if k.name == name)

    def nested(self, ctx: SCtx) -> list:
        """`dst = self.k(self.k2(..., a), dst)`: the inner call updates `a` in place."""
        first = Gen.call(self, ctx)
        if not first:
            return []
        c = first[0]
        k2 = self.prog_kernel(c.kernel)
        if c.submit or len(k2.results) != 1 or c.args[k2.results[0]] != c.results[0]:
            return first
        a = c.results[0]
        shape = ctx.names[a]
        dst_shape = self.rng.choice(("A", "B"))
        dst = self.pick(ctx, dst_shape, writable=True)
        if dst is None or dst == a:
            return first
        k = self.kernel((("in", shape), ("inout", dst_shape)))
        outer = P.Call(k.name, (a, dst), (dst,))
        return [S.NestedCall(outer, c, 0)]

    # -- views ---------------------------------------------------------------------------------

    def view(self, ctx: SCtx) -> list:
        r = self.rng
        x = r.random()
        if x < 0.4:
            src = self.pick(ctx, "A", writable=False)
            if src is None:
                return []
            rows = (0, 2, 4) + tuple((v, step) for v in ctx.loop_vars for step in (1, 2))
            s = P.Slice(self.fresh("s"), src, r.choice(rows), short=r.random() < 0.6)
            shape = "B"
        elif x < 0.7:
            shape0 = r.choice(("A", "B", "C"))
            src = self.pick(ctx, shape0, writable=False)
            if src is None:
                return []
            s = P.Transpose(self.fresh("s"), src, short=r.random() < 0.6)
            shape = {"A": "C", "B": "B", "C": "A"}[shape0]
            ctx.strided = ctx.strided | {s.name}
        else:
            shape0 = r.choice(("A", "C", "B"))
            cands = sorted(n for n, sh in ctx.names.items() if sh == shape0 and n not in ctx.strided)
            if not cands:
                return []
            src = r.choice(cands)
            shape = {"A": "C", "C": "A", "B": "B"}[shape0]
            s = S.Reshape(self.fresh("s"), src, shape, view=shape0 == "B" or r.random() < 0.3)
        if src in ctx.strided:
            ctx.strided = ctx.strided | {s.name}
        ctx.names[s.name] = shape
        if src in ctx.readonly:
            ctx.readonly.add(s.name)
        return [s]

    def alias(self, ctx: SCtx) -> list:
        out = super().alias(ctx)
        if out and out[0].src in ctx.strided:
            ctx.strided = ctx.strided | {out[0].name}
        return out

    def swap(self, ctx: SCtx) -> list:
        out = super().swap(ctx)
        if out and (out[0].p in ctx.strided or out[0].q in ctx.strided):
            ctx.strided = ctx.strided | {out[0].p, out[0].q, out[0].tmp}
        return out

    # -- blocks --------------------------------------------------------------------------------

    def cond(self, ctx: SCtx) -> tuple:
        lhs, op, rhs = super().cond(ctx)
        opts = [(lhs, op, S.Const(rhs) if self.rng.random() < 0.3 else rhs)]
        opts += [(v, ">", 0) for v in ctx.ints] + [(v, "==", 1) for v in ctx.ints]
        return self.rng.choice(opts)

    def loop(self, ctx: SCtx) -> list:
        r = self.rng
        if r.random() < 0.3:
            var = self.fresh("u")
            inner = ctx.child(loop_vars=ctx.loop_vars + (var,), depth=ctx.depth + 1, in_unroll=True)
            body = self.block(inner, max(1, min(self.budget, r.randint(1, 3))))
            return [P.Loop("unroll", var, r.choice((0, 1, 2, 3)), tuple(body))]
        out = super().loop(ctx)
        if out and isinstance(out[0].trip, int) and r.random() < 0.3:
            out = [P.Loop(out[0].kind, out[0].var, S.Const(out[0].trip), out[0].body, out[0].carries,
                          out[0].yields, out[0].results)]
        return out

    def while_(self, ctx: SCtx) -> list:
        r = self.rng
        pre = []
        choice = r.random()
        if choice < 0.45:
            var = self.fresh("v")
            if ctx.cnt_set and r.random() < 0.8:
                idx = r.choice(sorted(ctx.cnt_set))
            else:       # a read of an element never written reads 0: the loop would never run
                idx = r.randrange(P.COUNT_SIZE)
                pre.append(S.CountWrite(idx, r.choice(("n", "c + 1", "n", S.Const(2)))))
            pre.append(S.CountRead(var, idx))
            bound = var
        elif choice < 0.6 and ctx.ints:
            bound = r.choice(ctx.ints)
        else:
            bound = r.choice(("n", "n", "c + 1", S.Const(2)))
        var = self.fresh("i")
        inner = ctx.child(loop_vars=ctx.loop_vars + (var,), depth=ctx.depth + 1)
        if pre:
            ctx.ints = ctx.ints + (pre[-1].var,)
            inner.ints = ctx.ints
        carries = ()
        shape = r.choice(("A", "B"))
        cands = sorted(n for n, s in ctx.names.items() if s == shape and n not in ctx.readonly)
        if cands and r.random() < 0.7:
            inits = r.sample(cands, min(len(cands), r.choice((1, 2, 2))))
            carries = tuple((self.fresh("p"), init) for init in inits)
            for inn, _ in carries:
                inner.names[inn] = shape
                inner.readonly.discard(inn)
        body = self.block(inner, max(1, min(self.budget, r.randint(1, 4))))
        pool = sorted(n for n, s in inner.names.items() if s == shape and n not in inner.readonly)
        inns = [inn for inn, _ in carries]
        if len(inns) == 2 and r.random() < 0.6:
            yields = (inns[1], inns[0])
        else:
            yields = tuple(r.choice(pool) for _ in inns)
        results = tuple(self.fresh("r") for _ in inns)
        for res in results:
            ctx.names[res] = shape
            if any(y in inner.strided for y in yields):
                ctx.strided = ctx.strided | {res}
        recount = None
        if r.random() < 0.35:          # the bound re-read from cnt at the end of every iteration
            recount = (self.fresh("j"), r.choice(sorted(inner.cnt_set | ctx.cnt_set)) if (inner.cnt_set | ctx.cnt_set)
                       else r.randrange(P.COUNT_SIZE), self.fresh("v"))
        return pre + [S.While(var, bound, tuple(body), carries, yields, results, self.fresh("e"), recount)]

    def count_write(self, ctx: SCtx) -> list:
        opts = ["n", "c", "c + 1", 0, 2, 3, S.Const(1)] + list(ctx.loop_vars)
        idx = self.rng.randrange(P.COUNT_SIZE)
        ctx.cnt_set = ctx.cnt_set | {idx}
        return [S.CountWrite(idx, self.rng.choice(opts))]

    def cluster(self, ctx: SCtx) -> list:
        """`with pl.cluster(name_hint=...)`: one call of an AIV kernel, or two calls one of which is
        of an AIC kernel (in either order); each call's results are its written arguments."""
        g = self.clusters
        if ctx.in_unroll or ctx.chain is not None:
            return []
        n = g.choice((1, 2, 2))
        aic = g.randrange(n) if n == 2 else None
        calls, written = [], []
        for i in range(n):
            nparams = g.choice((1, 2, 2, 3))
            params, args = [], []
            for j in range(nparams):
                last = j == nparams - 1
                d = g.choice(("in", "in", "out", "inout", "inout")) if not last else g.choice(("out", "inout", "inout"))
                shape = g.choice(("A", "A", "B"))
                cands = sorted(m for m, sh in ctx.names.items() if sh == shape and not (d != "in" and m in ctx.readonly))
                if not cands:
                    return []
                params.append((d, shape))
                args.append(g.choice(cands))
            mine = [a for (d, _), a in zip(params, args) if d != "in"]
            if len(mine) != len(set(mine)):
                return []
            params = tuple(params)
            if i == aic:
                key = ("AIC", params)
                if key not in self.kernels:
                    self.kernels[key] = P.Kernel(f"k{len(self.kernels)}", params, "AIC")
                k = self.kernels[key]
            else:
                k = self.kernel(params)
            calls.append(P.Call(k.name, tuple(args), tuple(args[pos] for pos in k.results)))
            written += [a for a in mine if a not in written]
        self.outlined += 1
        for a in written:
            self.rebound(ctx, a)
        return [S.Cluster(f"blk{self.outlined}", tuple(calls))]

    def outlined_block(self, ctx: SCtx) -> list:
        r = self.rng
        if ctx.in_unroll:
            return []
        if self.clusters.random() < 0.3:
            out = self.cluster(ctx)
            if out:
                return out
        shape = r.choice(("A", "A", "B"))
        src = self.pick(ctx, shape, writable=False)
        if src is None:
            return []
        form = "store" if r.random() < 0.6 else "make"
        if form == "store":
            dst = self.pick(ctx, shape, writable=True)
            if dst is None or dst == src:
                return []
        else:
            dst = self.fresh("f")
        self.outlined += 1
        name = f"blk{self.outlined}"
        spmd = r.choice(("2", "n + 1", S.Const(3))) if r.random() < 0.3 else None
        kw = []
        if r.random() < 0.2:
            kw.append("allow_early_resolve=True")
        if r.random() < 0.15:
            kw.append(f"dumps=[{src}]")
        if r.random() < 0.1 and spmd is None:
            kw.append(f"no_dep_args=[{src}]")
        if ctx.chain:
            tid, deps = ctx.chain, (ctx.chain,) + ((r.choice(ctx.tids),) if ctx.tids and r.random() < 0.3 else ())
        else:
            tid = self.fresh("t") if r.random() < 0.5 else None
            deps = (r.choice(ctx.tids),) if ctx.tids and r.random() < 0.4 else ()
            if tid:
                ctx.tids = ctx.tids + (tid,)
        ctx.names[dst] = shape
        self.rebound(ctx, dst)
        self.not_created(ctx, dst)
        ctx.strided = ctx.strided - {dst} if form == "make" else ctx.strided
        loop = spmd is not None and tid is None and self.forms.random() < 0.5
        at = S.At(name, form, src, dst, shape, tid, deps, spmd, tuple(kw), loop)
        if form == "store":
            return [at]
        # a made value is an Out parameter only when used after the block: read it at once
        self.slot = (self.slot + 1) % P.SINK_SIZE
        d0, d1 = P.SHAPES[shape]
        return [at, P.HostRead(self.fresh("v"), dst, (r.randrange(d0), r.randrange(d1)), self.slot)]

    def inline_call(self, ctx: SCtx) -> list:
        r = self.rng
        if ctx.chain is not None or self.inline_depth > 0:
            return []
        nparams = r.choice((1, 2, 2, 3))
        params, args = [], []
        for i in range(nparams):
            shape = r.choice(("A", "A", "B"))
            d = r.choice(("in", "inout", "inout"))
            a = self.pick(ctx, shape, writable=d == "inout")
            if a is None or (d == "inout" and a in args):
                return []
            params.append((f"q{i}", shape, d))
            args.append(a)
        written = [a for (_, _, d), a in zip(params, args) if d == "inout"]
        if not written or len(set(args)) != len(args):
            return []
        # a parameter rebound in the body rebinds the caller's variable (section 5): not in a
        # pl.parallel loop, where the generator rebinds no outer name
        body_ctx = SCtx(names={n: s for n, s, _ in params}, readonly={n for n, _, d in params if d == "in"},
                        depth=1, in_parallel=ctx.in_parallel,
                        strided=frozenset(n for (n, _, _), a in zip(params, args) if a in ctx.strided))
        self.inline_depth += 1
        body = self.block(body_ctx, max(1, min(self.budget, r.randint(1, 4))))
        self.inline_depth -= 1
        rets = [(n, s) for n, s, d in params if d == "inout" and body_ctx.names.get(n) == s]
        if not rets:
            return []
        fn = S.InlineFn(f"inl{len(self.functions)}", tuple(params), tuple(body),
                        tuple(n for n, _ in rets), tuple(s for _, s in rets))
        self.functions.append(fn)
        pos = {n: i for i, (n, _, _) in enumerate(params)}
        for a in written:       # the body may have rebound its parameter, so the caller's name
            self.rebound(ctx, a)
            self.not_created(ctx, a)
            ctx.strided = ctx.strided | {a}
        results = []
        for n, s in rets:
            res = args[pos[n]] if not ctx.in_parallel and r.random() < 0.8 else self.fresh("g")
            results.append(res)
            ctx.names[res] = s
            self.rebound(ctx, res)
            self.not_created(ctx, res)
            ctx.strided = ctx.strided | {res}     # the body may have bound it to a transpose
        return [S.InlineCall(fn.name, tuple(args), tuple(results))]

    def dump_tag(self, ctx: SCtx) -> list:
        return [S.DumpTag(self.rng.choice(sorted(ctx.names)))]

    def manual(self, ctx: SCtx) -> list:
        out = super().manual(ctx)
        m = out[0]
        if ctx.chain is None and ctx.tids and self.rng.random() < 0.5 and isinstance(m.body[0], P.TidNone):
            out = [P.Manual((S.TidCopy(m.body[0].tid, self.rng.choice(ctx.tids)),) + m.body[1:])]
        return out

    def stmt(self, ctx: SCtx) -> list:
        r = self.rng
        if self.bshapes.random() < 0.12:
            g = self.bshapes
            out = self.block_shape(ctx) if g.random() < 0.6 else self.blk(ctx, g, g.randint(1, 4))
            if out:
                self.budget -= 1
                return out
        extra = [(self.outlined_block, 4), (self.nested, 2), (self.count_write, 2), (self.dump_tag, 1),
                 (self.view, 3)]
        if self.inline_depth == 0 and ctx.chain is None:
            extra.append((self.inline_call, 3))
        if ctx.depth < 3 and self.budget > 1:
            extra.append((self.while_, 3))
        for _ in range(3):
            if r.random() < 0.4:
                fn = r.choices(*zip(*extra))[0]
                self.budget -= 1
                out = fn(ctx)
                if out:
                    return out
                self.budget += 1
        return super().stmt(ctx)


def generate(seed: int, size: Optional[int] = None) -> P.Program:
    rng = random.Random(seed)
    size = size if size is not None else rng.randint(2, 12)
    g = SurfaceGen(rng, size, auto_scope=rng.random() < 0.8)
    g.forms = random.Random(f"forms-{seed}")
    g.clusters = random.Random(f"clusters-{seed}")
    g.bshapes = random.Random(f"blocks-{seed}")
    ctx = SCtx(names={"x": "A", "a": "A", "b": "A", "w": "B"}, readonly={"x"})
    body = g.block(ctx, size)
    returns = "a"
    if rng.random() < 0.2 and ctx.names.get("b") == "A":
        returns = "a, b"
    ret_call = None
    if rng.random() < 0.1:
        src, dst = g.pick(ctx, "A", writable=False), g.pick(ctx, "A", writable=True)
        if src and dst and src != dst:
            k = g.kernel((("in", "A"), ("inout", "A")))
            ret_call = P.Call(k.name, (src, dst), (dst,))
            returns = dst
    # an outlined block only in an Inline function: refused (tools/attack/found/20, since fixed), so rarely
    if rng.random() < 0.15:
        side = SCtx(names={"x": "A", "a": "A", "b": "A", "w": "B"}, readonly={"x"})
        g.functions.append(S.SecondOrch(tuple(g.block(side, rng.randint(1, 6)))))
    # a block only in an Inline function `orch` calls (not one only zz_side calls: s90000451, RUNS.md)
    has_at = _has(body, (S.At, S.Cluster, Blk)) or (S.holds_block(body, tuple(g.functions)) and rng.random() < 0.1)
    return P.Program(tuple(g.kernels.values()), tuple(body), g.auto_scope, returns, surface=True,
                     functions=tuple(g.functions), plain_orch=has_at and g.auto_scope and rng.random() < 0.5,
                     return_call=ret_call)


def _has(body, cls) -> bool:
    return any(isinstance(s, cls) or any(_has(ch, cls) for ch in P.children(s)) for s in body)
