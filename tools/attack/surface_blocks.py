"""Outlined blocks with bodies of several statements, for the surface grammar (surface_generate.py),
and the shapes around them that decide which names leave a block: a block in a host loop whose
name the next iteration reads above it, reads only in a branch or only after the loop, a rebinding
on some paths before the read, a later block reading it, a block in an `if` in a loop, in a
manual scope, in nested loops and in a loop carrying a tensor.

Meaning (reference-surface.md section 3, and Python's): a `with pl.at(...)` (or `with pl.spmd`,
`for bi in pl.spmd`) block is one task of the kernel outlined from it. Its statements run in it:
`v = pl.add(p, q)` / `v = pl.muls(p, 2.0)` bind a new value to v, `d = pl.assemble(d, v, [0, 0])`
writes v into the outer tensor d (all its elements: v has d's shape), `if`s choose on scalars.
A name the block binds is bound after it, as after any Python statement; the task's parameters:

- In: each outer tensor the block reads before (on some path) binding it in the block, in order of
  first use in the text, less those it writes;
- InOut: each outer tensor it assembles into, in order of first write;
- Out: each name the block binds (on every path through it) that is live after the block: read,
  on some path from the block's end (a loop's next iteration included), before it is bound again;
  in order of first binding, on a buffer the caller makes. The task writes all of it.

The liveness counts every host loop as one that may run no iteration, an Inline call as a read
of its arguments and a host read whose value nothing uses as a read, as the compiler does (Python would not: the Outs this adds are dead, no value
differs). A name the block binds that is dead after it gets no parameter; the model still binds it to a new
buffer whose elements are the task's writes, so that a read the liveness below missed observes a
value no compile gives (a failure of the model or the compiler, never silence).

Validity rules (the compiler's, and this grammar's to stay clear of copies the runtime cannot
make): a name a block binds in one branch of an `if` only is a fresh name, used in that branch
only (an outer name bound on some paths only and read after the block is a located refusal:
"the branches of an if in it bind it to different tensors"); a block assembles only into outer
tensors it does not bind; every block value has shape A ([8, 4]).
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from typing import Optional

from . import program as P
from . import surface as S


# With this environment variable set (to anything), the generator makes no block that reads an
# outer name it also binds (`t = pl.add(t, x)`): every such block was a failure at de34d9e (the
# kernel has no Out for t), so runs that look past that class set it.
NO_READ_REBIND = "ATTACK_BLOCKS_NO_READ_REBIND"


# ---- statements of a block's body ------------------------------------------------------------

@dataclass(frozen=True)
class BOp:
    """`name = pl.add(srcs[0], srcs[1])` or `name = pl.muls(srcs[0], 2.0)`."""

    name: str
    srcs: tuple

    def text(self) -> str:
        if len(self.srcs) == 2:
            return f"{self.name} = pl.add({self.srcs[0]}, {self.srcs[1]})"
        return f"{self.name} = pl.muls({self.srcs[0]}, 2.0)"


@dataclass(frozen=True)
class BAsm:
    """`dst = pl.assemble(dst, src, [0, 0])`: src's elements into the outer tensor dst."""

    dst: str
    src: str

    def text(self) -> str:
        return f"{self.dst} = pl.assemble({self.dst}, {self.src}, [0, 0])"


@dataclass(frozen=True)
class BIf:
    cond: tuple
    then: tuple
    orelse: tuple = ()


def _render_ops(p, d: int, ops) -> None:
    if not ops:
        p.emit(d, "pass")
    for op in ops:
        if isinstance(op, BIf):
            lhs, cmp, rhs = op.cond
            p.emit(d, f"if {lhs} {cmp} {rhs}:")
            _render_ops(p, d + 1, op.then)
            if op.orelse:
                p.emit(d, "else:")
                _render_ops(p, d + 1, op.orelse)
        else:
            p.emit(d, op.text())


def block_params(ops) -> tuple:
    """(ins, inouts, bound, surely): the block's outer reads (In, first-use order, writes left
    out), its outer writes (InOut), the names it binds in order of first binding, and those it
    binds on every path."""
    reads, writes, bound_order = [], [], []

    def walk(ops, local: frozenset) -> frozenset:
        """`local`: names surely bound in the block so far; returns it after `ops`."""
        for op in ops:
            if isinstance(op, BIf):
                a = walk(op.then, local)
                b = walk(op.orelse, local)
                local = local | (a & b)
                continue
            srcs = op.srcs if isinstance(op, BOp) else (op.dst, op.src)
            for s in srcs:
                if s not in local and s not in reads:
                    reads.append(s)
            if isinstance(op, BAsm):
                if op.dst not in writes:
                    writes.append(op.dst)
            else:
                if op.name not in bound_order:
                    bound_order.append(op.name)
                local = local | {op.name}
        return local

    # a read of a name an earlier path bound but not every one reads the outer value on the
    # other paths: an In parameter too (tests/test_block_free_names.py's one-branch rule)
    surely = walk(ops, frozenset())
    ins = [r for r in reads if r not in writes]
    return tuple(ins), tuple(writes), tuple(bound_order), surely


@dataclass(frozen=True)
class Blk:
    """An outlined block with a body of BOp / BAsm / BIf statements (module doc). `head`: "at",
    "spmd" (`with pl.spmd(2, ...)`) or "spmd-loop" (`for bi_K in pl.spmd(2, ...)`); in a manual
    scope `chain` is the scope's TaskId chain (`deps=[chain]` and `as chain`)."""

    kernel: str
    ops: tuple
    head: str = "at"
    chain: Optional[str] = None

    def render(self, p, d):
        kw = [f"name_hint={self.kernel!r}"] + ([f"deps=[{self.chain}]"] if self.chain else [])
        tid = f" as {self.chain}" if self.chain else ""
        if self.head == "at":
            p.emit(d, f"with pl.at(level=pl.Level.CORE_GROUP, {', '.join(kw)}){tid}:", self)
        elif self.head == "spmd" or self.chain:
            p.emit(d, f"with pl.spmd(2, {', '.join(kw)}){tid}:", self)
        else:
            p.emit(d, f"for bi_{self.kernel} in pl.spmd(2, {', '.join(kw)}):", self)
        _render_ops(p, d + 1, self.ops)

    def run(self, r):
        ins, inouts, bound, surely = block_params(self.ops)
        live = liveness(r.prog).get(id(self), frozenset())
        outs = [b for b in bound if b in surely and b in live]
        views = {}
        accs = []
        for name in ins:
            accs.append(r.access(len(accs), r.env[name], True, False))
        for name in inouts:
            accs.append(r.access(len(accs), r.env[name], True, True))
        for name in outs:
            views[name] = r.fresh("o", P.SHAPES["A"])
            accs.append(r.access(len(accs), views[name], False, True))
        ev = r.event("task", self.kernel, self, accs)
        r.perform(ev, accs)
        for name in bound:
            if name not in surely:
                continue
            if name not in views:       # dead after the block: no parameter, yet the task's value
                views[name] = r.fresh("dead", P.SHAPES["A"])
                for e in views[name].elems():
                    r.mem[(views[name].buf, e)] = ("ev", ev.idx)
            r.made_at[views[name].buf] = ev.idx
            r.env[name] = views[name]
        if self.chain:
            r.env[self.chain] = "tid"


# ---- liveness (Python's meaning, over the abstract program) ---------------------------------

def _uses_defs(s) -> tuple:
    """(names read, names surely bound) of a statement with no statement lists."""
    if isinstance(s, P.Call):
        return {a for a in s.args if a} | set(s.deps), set(s.results) | ({s.tid} if s.tid else set())
    if isinstance(s, P.HostRead):
        # a dead read (`live` false) reads its tensor too, as the front end's liveness counts
        # it before remove_dead_values drops it: the block binding the tensor keeps an Out
        return {s.tensor}, {s.var}
    if isinstance(s, P.HostWrite):
        return {s.tensor}, set()
    if isinstance(s, P.Create):
        return set(), {s.name}
    if isinstance(s, (P.Slice, P.Transpose, S.Reshape)):
        return {s.src}, {s.name}
    if isinstance(s, P.Assemble):
        return {s.target, s.src}, {s.target}
    if isinstance(s, (P.Alias, S.TidCopy)):
        return {s.src}, {getattr(s, "name", None) or getattr(s, "dst")}
    if isinstance(s, P.Swap):
        return {s.p, s.q}, {s.p, s.q, s.tmp}
    if isinstance(s, (P.TidNone,)):
        return set(), {s.tid}
    if isinstance(s, P.Barrier):
        return {s.tid}, {s.tid}
    if isinstance(s, S.At):
        return {s.src} | ({s.dst} if s.form == "store" else set()) | set(s.deps), {s.dst} | ({s.tid} if s.tid else set())
    if isinstance(s, S.Cluster):
        return {a for c in s.calls for a in c.args}, {res for c in s.calls for res in c.results}
    if isinstance(s, S.InlineCall):
        return set(s.args), set(s.results)
    if isinstance(s, S.NestedCall):
        u1, d1 = _uses_defs(s.inner)
        u2, d2 = _uses_defs(s.outer)
        return u1 | (u2 - d1), d1 | d2
    if isinstance(s, S.DumpTag):
        return {s.name}, set()
    if isinstance(s, Blk):
        ins, inouts, _, surely = block_params(s.ops)
        return set(ins) | set(inouts) | ({s.chain} if s.chain else set()), set(surely) | ({s.chain} if s.chain else set())
    return set(), set()


def liveness(prog: P.Program) -> dict:
    """id(Blk) -> the names live after it (read on some path before being bound again; a loop's
    next iteration and a zero-trip loop's exit included), in the names of the function it is
    in. A block in an Inline function is read at its call (the generator calls each Inline
    function once): its body's names are the caller's variables for the parameters (section 5:
    the arguments substituted) and its own locals elsewhere; its `return` reads what it returns,
    but for a result that is the returned name itself, only when that is live. Cached on the program."""
    cached = _CACHE.get(id(prog))
    if cached is not None and cached[0] is prog:
        return cached[1]
    out: dict = {}
    inline = {f.name: f for f in prog.functions if isinstance(f, S.InlineFn)}
    same = (lambda name: name, lambda name: name)

    def seq(body, live: frozenset, names) -> frozenset:
        for s in reversed(body):
            live = stmt(s, live, names)
        return live

    def loop(body, live_after: frozenset, inners: set, yields: set, results: set, once: bool, names) -> frozenset:
        exit_live = (live_after - results) | inners
        head = exit_live
        while True:
            body_out = (head - inners) | yields
            start = seq(body, body_out, names)
            new = exit_live | start
            if new == head:
                break
            head = new
        return start if once else head

    def stmt(s, live: frozenset, names) -> frozenset:
        """`names`: (the caller's name of a name of this body, the reverse or None)."""
        m, back = names
        if isinstance(s, Blk):
            mine = {back(n) for n in live} - {None}
            out[id(s)] = out.get(id(s), frozenset()) | mine
        if isinstance(s, (P.Loop, S.While)):
            inners = {m(i) for i, _ in s.carries}
            # every host loop may run no iteration: the compiler keeps an Out for a name a loop of
            # a constant trip count rebinds (one it never reads: no wrong value), and so does this
            once = False
            before = loop(s.body, live, inners, {m(y) for y in s.yields}, {m(r) for r in s.results}, once, names)
            return (before - inners) | {m(init) for _, init in s.carries}
        if isinstance(s, P.If):
            return seq(s.then, live, names) | seq(s.orelse, live, names)
        if isinstance(s, (P.Manual, P.Auto)):
            return seq(s.body, live, names)
        if isinstance(s, S.InlineCall) and s.fn in inline and names is same:
            fn = inline[s.fn]
            params = {p: a for (p, _, _), a in zip(fn.params, s.args)}
            params.update(sink="sink", cnt="cnt")
            args = {a: p for p, a in params.items()}
            prefix = f"{fn.name}:"
            inner = (lambda n: params.get(n, prefix + n),
                     lambda n: args.get(n) or (n[len(prefix):] if n.startswith(prefix) else None))
            # the copy's return assigns each result (`u = t`): a read of the returned name, live or
            # not u is, as the compiler counts it; none where the result is the name returned
            # (`t = self.f(x, t)` returning its parameter for t: t is the result already)
            after = (live - set(s.results)) | {inner[0](r) for r, res in zip(fn.returns, s.results)
                                               if res in live or inner[0](r) != res}
            # the call reads its arguments, as the compiler counts (substituted, only the body's
            # reads would count: the compiler keeps an Out for a block's t passed to a later call
            # whose body binds t before reading it; dead, no wrong value)
            return seq(fn.body, after, inner) | set(s.args)
        uses, defs = _uses_defs(s)
        return (live - {m(d) for d in defs}) | {m(u) for u in uses}

    # the return reads what it returns, as the compiler counts (a returned output parameter's
    # name ends on the caller's buffer: place_returned_creates_in_output_params; an Inline
    # function's block binding a parameter whose argument is a returned name has an Out)
    returned = {r.strip() for r in prog.returns.split(",") if r.strip()} if prog.return_call is None else set()
    end = frozenset({a for a in prog.return_call.args if a} if prog.return_call is not None else returned)
    seq(prog.body, end, same)
    _CACHE.clear()
    _CACHE[id(prog)] = (prog, out)
    return out


_CACHE: dict = {}
# the names a program may return: a block does not bind them directly (the liveness above counts
# the return as their read; an Inline function's block may still bind one through a parameter)
RETURNED = ("a", "b")


# ---- generation ------------------------------------------------------------------------------

class BlockShapes:
    """The generator's part for these blocks: mixed into surface_generate.SurfaceGen, drawing from
    its own `random.Random` (`self.bshapes`) so that programs without them stay as they were."""

    def blk_ops(self, ctx, g: random.Random, budget: int, bind: Optional[str] = None,
                depth: int = 0) -> tuple:
        """A block body over ctx's names (shape A): values, assembles into outer tensors, ifs; when
        `bind`, the body surely binds it (at its top level)."""
        outer = sorted(n for n, s in ctx.names.items() if s == "A")
        writable = [n for n in outer if n not in ctx.readonly and n != bind]
        local: list = []              # names surely bound so far at this level
        ops: list = []
        targets = set(getattr(self, "_blk_targets", ()))
        for _ in range(budget):
            x = g.random()
            pool = outer + local
            if x < 0.2 and depth == 0:
                cond = g.choice([("c", ">", 0), ("n", ">", 1)] + [(v, "==", 0) for v in ctx.loop_vars])
                mine = self.fresh("l")
                then = (BOp(mine, (g.choice(pool), g.choice(pool))),)
                if g.random() < 0.5 and writable:
                    t = g.choice(writable)
                    if t not in local and t != bind:
                        targets.add(t)
                        then += (BAsm(t, mine),)
                orelse = ()
                if g.random() < 0.5:
                    orelse = (BOp(mine, (g.choice(pool),)),)    # bound in both branches: surely
                    local.append(mine)
                ops.append(BIf(cond, then, orelse))
            elif x < 0.35 and writable:
                t = g.choice(writable)
                if t in local or t == bind:
                    continue
                targets.add(t)
                ops.append(BAsm(t, g.choice(pool)))
            else:
                cands = [n for n in outer if n not in ctx.readonly and n not in targets and n not in RETURNED] + local
                name = g.choice(cands) if cands and g.random() < 0.5 else self.fresh("v")
                if name in targets:
                    name = self.fresh("v")
                srcs = (g.choice(pool), g.choice(pool)) if g.random() < 0.6 else (g.choice(pool),)
                ops.append(BOp(name, srcs))
                if name not in local:
                    local.append(name)
        if bind is not None:
            if g.random() < 0.3 and outer:     # bound twice: first, and last
                ops.insert(0, BOp(bind, (g.choice(outer),)))
            srcs = tuple(g.choice(outer + local) for _ in range(g.choice((1, 2))))
            ops.append(BOp(bind, srcs))
            local.append(bind)
        # an assemble target is never bound by the block (module doc)
        bad = {op.name for op in _flat(ops) if isinstance(op, BOp)} & {op.dst for op in _flat(ops) if isinstance(op, BAsm)}
        ops = [op for op in ops if not (isinstance(op, BAsm) and op.dst in bad)]
        ops = [BIf(op.cond, tuple(o for o in op.then if not (isinstance(o, BAsm) and o.dst in bad)), op.orelse)
               if isinstance(op, BIf) else op for op in ops]
        return tuple(ops)

    def blk(self, ctx, g: random.Random, budget: int, bind: Optional[str] = None, lead: tuple = ()) -> list:
        """A Blk whose body is `lead` then blk_ops'."""
        if ctx.in_unroll or ctx.in_parallel or "A" not in ctx.names.values():
            return []
        ops = lead + self.blk_ops(ctx, g, budget, bind)
        for _ in range(20 if os.environ.get(NO_READ_REBIND) else 0):
            ins, _, bound, _ = block_params(ops)
            if not set(ins) & set(bound):
                break
            ops = lead + self.blk_ops(ctx, g, budget, bind)
        else:
            if os.environ.get(NO_READ_REBIND):
                return []
        self.outlined += 1
        head = g.choice(("at", "at", "at", "spmd", "spmd-loop"))
        b = Blk(f"blk{self.outlined}", ops, head, ctx.chain)
        _, _, bound, surely = block_params(ops)
        for name in bound:
            if name in surely:
                ctx.names[name] = "A"
                ctx.readonly.discard(name)
                self.rebound(ctx, name)
                self.not_created(ctx, name)
                ctx.strided = ctx.strided - {name}
        return [b]

    def t_reader(self, ctx, t: str, g: random.Random, shape: str = "A") -> list:
        """A task reading t: `y = self.k(t, y)` for a writable y other than t."""
        ys = sorted(n for n, s in ctx.names.items() if s == "A" and n not in ctx.readonly and n != t)
        if not ys:
            return []
        y = g.choice(ys)
        k = self.kernel((("in", shape), ("inout", "A")))
        if ctx.chain:
            return [P.Call(k.name, (t, y), (y,), (), True, ctx.chain, (ctx.chain,))]
        return [P.Call(k.name, (t, y), (y,))]

    def t_reads(self, ctx, t: str, g: random.Random) -> tuple:
        """(statements above the block, statements below it) that read t's value from above the
        block: a task, a host read, a task on a slice of t, or an alias `u = t` above the block
        whose task reads u below it."""
        x = g.random()
        if x < 0.5:
            return self.t_reader(ctx, t, g), []
        if x < 0.65:
            self.slot = (self.slot + 1) % P.SINK_SIZE
            return [P.HostRead(self.fresh("v"), t, (g.randrange(8), g.randrange(4)), self.slot)], []
        if x < 0.8:
            sl = P.Slice(self.fresh("s"), t, g.choice((0, 4)), short=True)
            return [sl] + self.t_reader(ctx, sl.name, g, "B"), []
        u = self.fresh("u")
        ctx.names[u] = "A"
        return [P.Alias(u, t)], self.t_reader(ctx, u, g)

    def block_shape(self, ctx) -> list:
        """A host loop around a block binding t, with reads of t placed where liveness is decided."""
        g = self.bshapes
        if ctx.in_unroll or ctx.in_parallel or ctx.depth > 2:
            return []
        pre = []
        cands = sorted(n for n, s in ctx.names.items() if s == "A" and n not in ctx.readonly and n not in RETURNED)
        if cands and g.random() < 0.5:
            t = g.choice(cands)
        else:
            t = self.fresh("t")
            pre.append(P.Create(t, "A", g.choice((None, 0.5))))
        var = self.fresh("i")
        trip = g.choice(("n", "n", "n", 2, 3, S.Const(2)))
        carries = ()
        inner = ctx.child(loop_vars=ctx.loop_vars + (var,), depth=ctx.depth + 1)
        inner.names[t] = "A"            # (ctx's names change only once the shape is made)
        if g.random() < 0.25:           # a loop carrying a tensor; the block binds the carry
            others = sorted(n for n, s in ctx.names.items() if s == "A" and n not in ctx.readonly and n != t)
            if others:
                p = self.fresh("p")
                carries = ((p, g.choice(others)),)
                inner.names[p] = "A"
                if g.random() < 0.5:
                    t = p
        body: list = []
        # above the block: the next iteration's read, maybe only in a branch, maybe after a
        # rebinding on some paths
        pool = sorted(n for n, s in inner.names.items() if s == "A")
        above, below = self.t_reads(inner, t, g)
        if g.random() < 0.3:
            reb = P.Alias(t, g.choice(pool))
            if reb.src != t:
                body.append(P.If(self.cond(inner), (reb,), ()))
        if above:
            if g.random() < 0.35 and not below:
                body.append(P.If(self.cond(inner), tuple(above), ()))
            elif g.random() < 0.85 or below:
                body += above
        if g.random() < 0.3:
            body += self.host_read(inner)
        where = g.random()
        if where < 0.3:                 # the block in an if (t was bound before: visible after)
            branch = inner.child(depth=inner.depth + 1)
            mine = self.blk(branch, g, g.randint(0, 3), bind=t)
            mine = [P.If(self.cond(inner), tuple(mine), ())] if mine else []
        elif where < 0.45 and inner.chain is None:     # in a manual scope
            m = self.fresh("m")
            scope = inner.child(chain=m, depth=inner.depth + 1)
            mine = self.blk(scope, g, g.randint(0, 2), bind=t)
            mine = [P.Manual((P.TidNone(m),) + tuple(mine))] if mine else []
            if mine:
                inner.names.update(scope.names)
                inner.readonly -= set(scope.names) - scope.readonly
        else:
            mine = self.blk(inner, g, g.randint(0, 3), bind=t)
        if not mine:
            return []
        body += mine + below
        if g.random() < 0.3:            # a later block reads it
            pool = sorted(n for n, s in inner.names.items() if s == "A")
            body += self.blk(inner, g, g.randint(0, 2), lead=(BOp(self.fresh("v"), (t, g.choice(pool))),))
        if g.random() < 0.2 and ctx.depth < 2:           # a nested loop around a second reader
            v2 = self.fresh("i")
            body.append(P.Loop("range", v2, g.choice(("n", 2)), tuple(self.t_reader(inner, t, g))))
        if pre:
            ctx.names[pre[0].name] = "A"
        loop: P.Loop
        if not carries and g.random() < 0.2:     # a pl.while_ loop
            loop = S.While(var, g.choice(("n", S.Const(2))), tuple(body), count=self.fresh("e"))
        elif carries:
            yields = (carries[0][0],)
            results = (self.fresh("r"),)
            ctx.names[results[0]] = "A"
            loop = P.Loop("range", var, trip, tuple(body), carries, yields, results)
        else:
            loop = P.Loop("range", var, trip, tuple(body))
        out = pre + [loop]
        if g.random() < 0.2 and ctx.depth < 2 and not carries:   # the whole loop in another
            v0 = self.fresh("i")
            outer = ctx.child(loop_vars=ctx.loop_vars + (v0,), depth=ctx.depth + 1)
            first = self.t_reader(outer, t, g) if g.random() < 0.5 else []
            out = pre + [P.Loop("range", v0, g.choice(("n", 2)), tuple(first) + (loop,))]
        if g.random() < 0.5:            # read after the loop only
            out += self.t_reader(ctx, t, g) if t in ctx.names else []
        return out


def _flat(ops):
    for op in ops:
        if isinstance(op, BIf):
            yield from _flat(op.then)
            yield from _flat(op.orelse)
        else:
            yield op
