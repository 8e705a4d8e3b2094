"""Statements of the DSL surface added by issue 22 (shared/spec/reference-surface.md), for the
adversarial tester: each renders itself (`render(printer, depth)`) and runs in the sequential
semantics (`run(runner)`), so program.py and semantics.py only dispatch to them.

Meanings, from reference-surface.md and the README's description of the DSL:

- `pl.at(level=pl.Level.CORE_GROUP, name_hint=K)` block: one task of the kernel K outlined from
  the block; outer tensors read in it are In parameters, a tensor stored into is InOut, a value
  made in it and used after it is an Out parameter on a buffer the caller makes (sections 3);
  parameters in order of first use in the block. `pl.spmd(N, name_hint=K)`: the same, one task
  launched on N blocks (section 1).
- `pl.cluster(name_hint=K)` block of kernel calls: one Group task launching the AIC and AIV
  kernels the block calls (section 1), its arguments the block's outer tensors as a `pl.at`
  block's are; the tester's clusters call one AIV kernel, or one AIV and one AIC kernel.
- `FunctionType.Inline` function: its body copied at each call (section 5): the parameters are
  substituted by the arguments, so a parameter rebound in the body rebinds the caller's variable
  passed for it, whether the call's results assign that variable or not; the body's other names
  are its own (each copy's locals are renamed). The tester passes names only: a parameter rebound
  with an argument that is no name would be an assignment to an expression after substitution,
  which nanopass refuses ("re-assigns parameter ...: pass a variable").
- a kernel call as an argument of another: the inner call runs first (section 10).
- `pl.while_(init_values=(0, ...))` with `pl.cond(i < bound)` first: the body runs while the
  condition, read on the carries at the top of each iteration, holds (README, `while`).
- `pl.dump_tag`, `dumps=`, `allow_early_resolve=`, `attrs=` with the declared directions, and
  `pl.const` change no ordering and no value.
- the value lane (recorder.cpp): a host read returns the value of the last host write to the
  element, 0 when none; kernels write nothing there. Only the INT64 tensor `cnt`'s values are
  used (as loop bounds).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

from . import program as P
from .semantics import Access, UNDEF, View, full_view


class Const(int):
    """An INT64 literal written `pl.const(v, pl.INT64)`."""

    def __str__(self) -> str:
        return f"pl.const({int(self)}, pl.INT64)"

    __repr__ = __str__

    def __format__(self, spec) -> str:
        return str(self)


def scalar_value(runner, expr) -> int:
    """An int, a Const, a scalar name, or `name + k`."""
    if isinstance(expr, int):
        return int(expr)
    if " + " in expr:
        lhs, rhs = expr.split(" + ")
        return scalar_value(runner, lhs) + int(rhs)
    if expr.lstrip("-").isdigit():
        return int(expr)
    return runner.scalars[expr]


@dataclass(frozen=True)
class CountWrite:
    """`pl.tensor.write(cnt, [idx], expr)` (expr: see scalar_value)."""

    idx: int
    expr: Union[int, str]

    def render(self, p, d):
        p.emit(d, f"pl.tensor.write(cnt, [{self.idx}], {self.expr})", self)

    def run(self, r):
        v = r.env["cnt"]
        ev = r.event("hwrite", None, self, [Access(0, v.buf, [self.idx], False, True)])
        r.mem[(v.buf, self.idx)] = ("ev", ev.idx)
        r.values[(v.buf, self.idx)] = scalar_value(r, self.expr)


@dataclass(frozen=True)
class CountRead:
    """`var = pl.tensor.read(cnt, [idx])`: an INT64 scalar (a later loop's bound)."""

    var: str
    idx: int

    def render(self, p, d):
        p.emit(d, f"{self.var} = pl.tensor.read(cnt, [{self.idx}])", self)

    def run(self, r):
        v = r.env["cnt"]
        ev = r.event("hread", None, self, [Access(0, v.buf, [self.idx], True, False)])
        ev.reads[0] = [r.mem.get((v.buf, self.idx), UNDEF)]
        r.scalars[self.var] = r.values.get((v.buf, self.idx), 0)


@dataclass(frozen=True)
class While(P.OneBlock):
    """`for (var, carries...) in pl.while_(init_values=(0, inits...)):` / `pl.cond(var < bound)` /
    body / `count, results... = pl.yield_(var + 1, yields...)`."""

    var: str
    bound: Union[int, str]
    body: tuple
    carries: tuple = ()
    yields: tuple = ()
    results: tuple = ()
    count: str = "n_done"
    recount: Optional[tuple] = None   # (carry, cnt index, var): the bound is a carry re-read from cnt
                                      # at the end of each iteration (`var = pl.tensor.read(cnt, [i])`)

    def render(self, p, d):
        rc = self.recount
        ints = [self.var] + ([rc[0]] if rc else [])
        inner = ", ".join(ints + [i for i, _ in self.carries])
        inits = ", ".join(["0"] + ([str(self.bound)] if rc else []) + [init for _, init in self.carries])
        one = "," if not self.carries and not rc else ""
        p.emit(d, f"for ({inner}{one}) in pl.while_(init_values=({inits}{one})):", self)
        p.emit(d + 1, f"pl.cond({self.var} < {rc[0] if rc else self.bound})")
        for s in self.body:
            p.stmt(d + 1, s)
        if rc:
            p.emit(d + 1, f"{rc[2]} = pl.tensor.read(cnt, [{rc[1]}])", self.recount)
        outs = (self.count,) + ((f"{rc[0]}_out",) if rc else ()) + self.results
        ys = (self.var + " + 1",) + ((rc[2],) if rc else ()) + self.yields
        p.emit(d + 1, f"{', '.join(outs)} = pl.yield_({', '.join(ys)})")

    def run(self, r):
        for inner, init in self.carries:
            r.env[inner] = r.env[init]
        i = 0
        bound = scalar_value(r, self.bound)
        while i < bound:
            if i > 8:
                raise ValueError("while loop does not end")
            r.scalars[self.var] = i
            if self.recount:
                r.scalars[self.recount[0]] = bound
            r.run(self.body)
            if self.recount:
                CountRead(self.recount[2], self.recount[1]).run(r)
                bound = r.scalars[self.recount[2]]
            new = [r.env[y] for y in self.yields]
            for (inner, _), v in zip(self.carries, new):
                r.env[inner] = v
            i += 1
        r.scalars[self.count] = i
        for (inner, _), res in zip(self.carries, self.results):
            r.env[res] = r.env[inner]


@dataclass(frozen=True)
class At:
    """A `with pl.at(...)` (`spmd`: `with pl.spmd(N, ...)`; with `loop` too, the loop form
    `for bi_<kernel> in pl.spmd(N, ...):`, which has no `as tid`) block outlined into kernel `kernel`.

    form "store": `t = pl.load(src, ...)`, `dst = pl.store(t, ..., dst)` (src In, dst InOut);
    form "make": `dst = pl.muls(src, 2.0)`, dst a new tensor (src In, dst Out on a new buffer).
    """

    kernel: str
    form: str
    src: str
    dst: str
    shape: str
    tid: Optional[str] = None
    deps: tuple = ()
    spmd: Optional[str] = None
    kw: tuple = ()
    loop: bool = False

    def render(self, p, d):
        kw = list(self.kw) + ([f"deps=[{', '.join(self.deps)}]"] if self.deps else [])
        if self.spmd is not None:
            head = f"pl.spmd({', '.join([str(self.spmd), f'name_hint={self.kernel!r}'] + kw)})"
        else:
            head = f"pl.at({', '.join(['level=pl.Level.CORE_GROUP', f'name_hint={self.kernel!r}'] + kw)})"
        if self.loop and self.spmd is not None and not self.tid:
            p.emit(d, f"for bi_{self.kernel} in {head}:", self)
        else:
            p.emit(d, f"with {head}" + (f" as {self.tid}:" if self.tid else ":"), self)
        d0, d1 = P.SHAPES[self.shape]
        if self.form == "store":
            p.emit(d + 1, f"tl_{self.kernel} = pl.load({self.src}, [0, 0], [{d0}, {d1}])")
            p.emit(d + 1, f"{self.dst} = pl.store(tl_{self.kernel}, [0, 0], {self.dst})")
        else:
            p.emit(d + 1, f"{self.dst} = pl.muls({self.src}, 2.0)")

    def run(self, r):
        src = r.env[self.src]
        dst = r.env[self.dst] if self.form == "store" else r.fresh("o", P.SHAPES[self.shape])
        nodep = f"no_dep_args=[{self.src}]" in self.kw
        accs = [r.access(0, src, True, False, nodep), r.access(1, dst, self.form == "store", True)]
        ev = r.event("task", self.kernel, self, accs)
        if self.form == "make":
            r.made_at[dst.buf] = ev.idx
        for acc in accs:
            if acc.read:
                ev.reads[acc.pos] = [r.mem.get((acc.buf, e), UNDEF) for e in acc.elems]
        for e in accs[1].elems:
            r.mem[(dst.buf, e)] = ("ev", ev.idx)
        r.env[self.dst] = dst
        if self.tid:
            r.env[self.tid] = "tid"


@dataclass(frozen=True)
class Cluster:
    """`with pl.cluster(name_hint=K):` holding the kernel calls `calls` (plain calls whose results
    are their written arguments, at most one of an AIC kernel): one Group task (reference-surface.md
    section 1) launching the AIC kernel it calls, if any, and its first AIV kernel: the recorder
    matches a Group task by its first kernel id, the AIC slot's when it has one. The task's tensor
    arguments are the block's (`group_params`); it reads each argument it does not only write, and
    writes each it writes, as one task."""

    name: str
    calls: tuple

    def render(self, p, d):
        p.emit(d, f"with pl.cluster(name_hint={self.name!r}):", self)
        for c in self.calls:
            p.stmt(d + 1, c)

    def kernel(self, prog) -> str:
        kernels = [prog.kernel(c.kernel) for c in self.calls]
        return next((k.name for k in kernels if k.core == "AIC"), kernels[0].name)

    def group_params(self, prog) -> list:
        """(name, read, written) of each tensor argument, in the Group kernel's order: the outer
        tensors only read (In), in order of first use, then those written, in order of first write
        (Out when a kernel's Out parameter writes it before the block used it, else InOut)."""
        reads, writes, overwritten = [], [], set()
        for c in self.calls:
            params = prog.kernel(c.kernel).params
            seen = {*reads, *writes}
            for a in c.args:
                if a not in seen and a not in reads:
                    reads.append(a)
            for (d, _), a in zip(params, c.args):
                if d != "in" and a not in writes:
                    if a in reads:
                        reads.remove(a)
                    writes.append(a)
                if d == "out" and a not in seen:
                    overwritten.add(a)
        return [(a, True, False) for a in reads] + [(a, a not in overwritten, True) for a in writes]

    def run(self, r):
        params = self.group_params(r.prog)
        accs = [r.access(i, r.env[a], read, write) for i, (a, read, write) in enumerate(params)]
        r.perform(r.event("task", self.kernel(r.prog), self, accs), accs)


@dataclass(frozen=True)
class InlineFn:
    """`@pl.function(type=pl.FunctionType.Inline) def name(self, params..., sink, cnt, n, c)`;
    params: (name, shape, "in" | "inout"); returns: the names returned (tensor params' final
    bindings), their shapes in `ret_shapes`."""

    name: str
    params: tuple
    body: tuple
    returns: tuple
    ret_shapes: tuple

    def render(self, p, prog):
        ps = [f"{n}: " + (P._ty(s) if d == "in" else f"pl.InOut[{P._ty(s)}]") for n, s, d in self.params]
        ps.append(f"sink: pl.InOut[pl.Tensor[[{P.SINK_SIZE}], pl.FP32]]")
        ps.append(f"cnt: pl.InOut[pl.Tensor[[{P.COUNT_SIZE}], pl.INT64]]")
        ps += [f"{s}: pl.Scalar[pl.INT64]" for s in P.SCALAR_PARAMS]
        rets = [P._ty(s) for s in self.ret_shapes]
        ret = rets[0] if len(rets) == 1 else "tuple[" + ", ".join(rets) + "]"
        p.emit(1, "@pl.function(type=pl.FunctionType.Inline)")
        p.emit(1, f"def {self.name}(self, {', '.join(ps)}) -> {ret}:")
        p.body(2, self.body)
        p.emit(2, f"return {', '.join(self.returns)}")
        p.emit(0, "")


@dataclass(frozen=True)
class SecondOrch:
    """A second orchestration function, `zz_side` (after `orch` by name, so the compile's result
    is `orch`'s): compiled and checked by g++, never run."""

    body: tuple

    def render(self, p, prog):
        flag = "" if prog.auto_scope else ", auto_scope=False"
        p.emit(1, f"@pl.function(type=pl.FunctionType.Orchestration{flag})")
        p.emit(1, f"def zz_side(self, {P.orch_params(prog)}) -> {P._ty('A')}:")
        p.body(2, self.body)
        p.emit(2, "return a")
        p.emit(0, "")


def holds_block(body: tuple, functions: tuple) -> bool:
    """Whether `body` holds an outlined block once the Inline functions it calls are inlined (the
    compiler takes a plain `@pl.function` for an orchestration function only then: README, "The
    front end"); an Inline function called only from another function does not count."""
    inline = {f.name: f for f in functions if isinstance(f, InlineFn)}

    def holds(stmts, expanding: frozenset) -> bool:
        for s in stmts:
            if isinstance(s, (At, Cluster)):
                return True
            if isinstance(s, InlineCall) and s.fn in inline and s.fn not in expanding and holds(
                    inline[s.fn].body, expanding | {s.fn}):
                return True
            if any(holds(ch, expanding) for ch in P.children(s)):
                return True
        return False
    return holds(body, frozenset())


@dataclass(frozen=True)
class InlineCall:
    """`results = self.fn(args..., sink, cnt, n, c)`."""

    fn: str
    args: tuple
    results: tuple

    def render(self, p, d):
        args = ", ".join(self.args + ("sink", "cnt") + P.SCALAR_PARAMS)
        p.emit(d, f"{', '.join(self.results)} = self.{self.fn}({args})", self)

    def run(self, r):
        fn = next(f for f in r.prog.functions if getattr(f, "name", None) == self.fn)
        outer = r.env
        pairs = [(pn, a) for (pn, _, _), a in zip(fn.params, self.args)] + [("sink", "sink"), ("cnt", "cnt")]
        r.env = {pn: outer[a] for pn, a in pairs}
        r.run(fn.body)
        vals = [r.env[n] for n in fn.returns]
        inner, r.env = r.env, outer
        for pn, a in pairs:     # substitution: the caller's variable is what the body rebound
            r.env[a] = inner[pn]
        for res, v in zip(self.results, vals):
            r.env[res] = v


@dataclass(frozen=True)
class NestedCall:
    """`outer` with argument `pos` written as the call `inner` (whose one result is its own
    written argument, the name `outer.args[pos]`)."""

    outer: P.Call
    inner: P.Call
    pos: int

    def render(self, p, d):
        args = [P.call_expr(self.inner) if i == self.pos else a for i, a in enumerate(self.outer.args)]
        p.emit(d, f"{', '.join(self.outer.results)} = {P.call_expr(self.outer, args)}", self)
        p.lines.setdefault(id(self.inner), len(p.out))
        p.lines.setdefault(id(self.outer), len(p.out))

    def run(self, r):
        r.stmt(self.inner)
        r.stmt(self.outer)


@dataclass(frozen=True)
class DumpTag:
    name: str

    def render(self, p, d):
        p.emit(d, f"pl.dump_tag({self.name})", self)

    def run(self, r):
        r.env[self.name]   # noqa: B018 - the name must exist


@dataclass(frozen=True)
class TidCopy:
    """`dst = src` of a TaskId (a manual scope's chain starting at a task before the scope)."""

    dst: str
    src: str

    def render(self, p, d):
        p.emit(d, f"{self.dst} = {self.src}", self)

    def run(self, r):
        r.env[self.dst] = r.env[self.src]


@dataclass(frozen=True)
class Reshape:
    """`name = pl.reshape(src, shape)` (`pl.tensor.view(src, shape)` when `view`) of a
    contiguous tensor."""

    name: str
    src: str
    shape: str
    view: bool = False

    def render(self, p, d):
        d0, d1 = P.SHAPES[self.shape]
        op = "pl.tensor.view" if self.view else "pl.reshape"
        p.emit(d, f"{self.name} = {op}({self.src}, [{d0}, {d1}])", self)

    def run(self, r):
        src: View = r.env[self.src]
        if src.strides != (src.shape[1], 1):
            raise ValueError(f"reshape of a strided view ({self.src})")
        new = P.SHAPES[self.shape]
        r.env[self.name] = View(src.buf, src.off, new, full_view(src.buf, new).strides)
