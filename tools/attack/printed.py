"""The printed-IR grammar: the tester's abstract programs rendered a second time, in the form the
existing compiler prints its IR (`python_print`), and checked by value through `nanopass.compile_text`.

Written from /work/shared/examples/printed-ir/ and the spec alone (nothing of the compiler's reader).
Two styles:
  written   the program as its user wrote it, printed: kernels without `self` with `level=`/`role=`
            and `pl.tile.*` bodies, an annotation on every assignment, `pl.tensor.create(...,
            layout=pl.TensorLayout.ND)`, `pl.tensor.slice/transpose/assemble`, results of a call
            with several outputs and of every `pl.submit` read through a `pl.Tuple` temporary
            (`_submit_tmp[i]`, the TaskId last), `pl.system.task_invalid()`, `with
            pl.scope(mode=pl.ScopeMode.MANUAL)`, `pl.no_dep` as `attrs={"arg_direction_overrides": [i]}`;
  pipeline  as after the existing compiler's pipeline besides: SSA names (`a__ssa_v1`, loop variables
            `i__idx_v0`, carries `a__iter_v2`, loop results `a__rv_v3`, if results `a__phi_v4`),
            every name a loop body rebinds carried through `init_values` and `pl.yield_`, every name
            a branch rebinds joined by `pl.yield_` in both branches, `auto_scope=False`, and for a
            function that had auto_scope its body and its loop and branch bodies outside manual
            scopes in explicit `with pl.scope():` (reference-behaviour.md 2.5),
            `pl.MemRef(...)` in tensor types, `attrs={"arg_directions": [...]}` on calls and
            `iter_arg_rebind_<i>` on loops (hints; with `lie`, some of them wrong: never followed),
            comparisons with the constant first.
A program of the plain DSL grammar (generate.py, scopes.py) is rendered in either style; its
meaning is the one the tester's semantics (semantics.py) gives the DSL program, so the compile of
the printed text is judged by the same oracle, run for run.
"""

from __future__ import annotations

import random
import re
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Optional

from . import generate as plain, oracle, record, runner, scopes
from . import program as P
from . import shrink as S

STYLES = ("written", "pipeline")
SSA_SUFFIX = re.compile(r"__(?:ssa|iter|rv|phi|idx|tmp)_v\d+\b")
TASK_ID = "pl.Scalar[pl.TASK_ID]"
# `arith`'s rewrites of a condition `lhs op rhs` (rhs an int literal) into one of the same truth
# for every integer lhs, by host scalar arithmetic; the variant is picked by `arith`
ARITH_CONDS_OPS = 3
ARITH_CONDS = {
    (">", 2): lambda l, r: (l, f"pl.const({r}, pl.INT64)"),
    ("==", 2): lambda l, r: (l, f"pl.const({r}, pl.INT64)"),
    (">", 0): lambda l, r: (f"({l} + 1) * 2", f"{2 * (r + 1)}"),
    (">", 1): lambda l, r: (f"{l} - {r}", "0"),
    ("==", 0): lambda l, r: (f"{l} * 3", f"{3 * r}"),
    ("==", 1): lambda l, r: (f"{l} + 5", f"{r + 5}"),
}
FP32 = "pl.Scalar[pl.FP32]"


def _dims(shape) -> tuple:
    return P.SHAPES[shape] if isinstance(shape, str) else tuple(shape)


def _tensor(dims: tuple, mem: Optional[str] = None) -> str:
    d = ", ".join(map(str, dims))
    nbytes = 4
    for x in dims:
        nbytes *= x
    memref = f", pl.MemRef(\"{mem}\", pl.const(0, pl.INT64), {nbytes})" if mem else ""
    return f"pl.Tensor[[{d}], pl.FP32{memref}]"


class _Out:
    def __init__(self):
        self.lines: list = []
        self.ids: dict = {}

    def emit(self, depth: int, text: str, stmt=None) -> None:
        self.lines.append("    " * depth + text)
        if stmt is not None and id(stmt) not in self.ids:
            self.ids[id(stmt)] = len(self.lines)


def _assigned(body) -> list:
    """Names a statement list binds, in first-binding order (nested blocks too, loop variables not)."""
    out: list = []

    def add(n):
        if n is not None and n not in out:
            out.append(n)

    def walk(stmts):
        for s in stmts:
            if isinstance(s, P.Call):
                for r in s.results:
                    add(r)
                if s.submit:
                    add(s.tid)
            elif isinstance(s, P.HostRead):
                add(s.var)
            elif isinstance(s, (P.Create, P.Slice, P.Transpose, P.Alias)):
                add(s.name)
            elif isinstance(s, P.Assemble):
                add(s.target)
            elif isinstance(s, P.Swap):
                add(s.tmp), add(s.p), add(s.q)
            elif isinstance(s, (P.TidNone, P.Barrier)):
                add(s.tid)
            elif isinstance(s, P.Loop):
                for inner, _ in s.carries:
                    add(inner)
                walk(s.body)
                for r in s.results:
                    add(r)
            else:
                for ch in P.children(s):
                    walk(ch)
    walk(body)
    return out


class _Renderer:
    """One rendering of a program in one style (`lie`: a seed for wrong hints, pipeline only)."""

    def __init__(self, prog: P.Program, style: str, lie: Optional[int] = None, arith: int = 0):
        self.prog = prog
        self.arith = arith
        self.rewritten = False        # a condition or trip written otherwise than the DSL program's
        self.ssa = style == "pipeline"
        self.rng = random.Random(lie) if lie is not None else None
        self.o = _Out()
        self.version: dict = {}       # base name -> next SSA version
        self.mems = 0
        self.tmps = 0
        self.env: dict = {}           # base name -> current (SSA) name
        self.ty: dict = {}            # base name -> type (dims tuple, "tid" or "f32")

    # -- names and types ---------------------------------------------------------------------

    def new(self, base: str, kind: str = "ssa") -> str:
        if not self.ssa:
            self.env[base] = base
            return base
        v = self.version.get(base, 0)
        self.version[base] = v + 1
        name = f"{base}__{kind}_v{v}"
        self.env[base] = name
        return name

    def use(self, base: str) -> str:
        return self.env.get(base, base)

    def type_text(self, base: str) -> str:
        t = self.ty[base]
        if t is None or (isinstance(t, str) and t.startswith("pl.")):   # as written (printed_scalars.py)
            return t
        if t == "tid":
            return TASK_ID
        if t == "f32":
            return FP32
        if t == "i64":
            return "pl.Scalar[pl.INDEX]"
        mem = None
        if self.ssa:
            mem = f"mem_ddr_{self.mems}"
            self.mems += 1
        return _tensor(t, mem)

    def annotated(self, name: str, base: str) -> str:
        """`name: <type>`, or the name alone for a value whose type is not printed (None)."""
        t = self.type_text(base)
        return name if t is None else f"{name}: {t}"

    def bind(self, d: int, base: str, ty, rhs: str, stmt=None, kind: str = "ssa") -> None:
        self.ty[base] = ty
        name = self.new(base, kind)
        self.o.emit(d, f"{self.annotated(name, base)} = {rhs}", stmt)

    def tmp(self) -> str:
        self.tmps += 1
        return "_submit_tmp" if self.tmps == 1 else f"_submit_tmp_{self.tmps}"   # (the examples' name)

    # -- kernels -----------------------------------------------------------------------------

    def kernel(self, k: P.Kernel) -> None:
        sfx = "__ssa_v0" if self.ssa else ""
        params = []
        for i, (d, s) in enumerate(k.params):
            ty = _tensor(_dims(s), f"mem_ddr_{i}" if self.ssa else None)
            wrap = {"in": "{}", "out": "pl.Out[{}]", "inout": "pl.InOut[{}]"}[d]
            params.append(f"p{i}{sfx}: " + wrap.format(ty))
        outs = [_tensor(_dims(k.params[i][1])) for i in k.results]
        ret = outs[0] if len(outs) == 1 else "tuple[" + ", ".join(outs) + "]"
        self.o.emit(1, "@pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)")
        self.o.emit(1, f"def {k.name}({', '.join(params)}) -> {ret}:")
        vec = 0
        for i in k.results:
            d, s = k.params[i]
            dims = _dims(s)
            src = next((j for j, (dj, sj) in enumerate(k.params) if dj == "in" and _dims(sj) == dims), None)
            if src is None and d == "inout":
                src = i
            if src is None:
                continue
            sz = ", ".join(map(str, dims))
            tile = f"pl.Tile[[{sz}], pl.FP32, pl.Mem.Vec]"
            if self.ssa:
                self.o.emit(2, f"mem_vec_{vec}: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, {4 * dims[0] * dims[1]})")
                tile = f"pl.Tile[[{sz}], pl.FP32, pl.MemRef(mem_vec_{vec}, pl.const(0, pl.INT64), {4 * dims[0] * dims[1]}), pl.Mem.Vec]"
                vec += 1
            self.o.emit(2, f"t{i}{sfx}: {tile} = pl.tile.load(p{src}{sfx}, [0, 0], [{sz}], [{sz}], target_memory=pl.Mem.Vec)")
            self.o.emit(2, f"r{i}{sfx}: {tile} = pl.tile.add(t{i}{sfx}, t{i}{sfx})")
            self.o.emit(2, f"o{i}{sfx}: {_tensor(dims)} = pl.tile.store(r{i}{sfx}, [0, 0], p{i}{sfx})")
        self.o.emit(2, "return " + ", ".join(f"p{i}{sfx}" for i in k.results))

    # -- statements --------------------------------------------------------------------------

    def directions(self, k: P.Kernel, s: P.Call) -> str:
        names = []
        for i, (d, _) in enumerate(k.params):
            if i < len(s.args) and s.args[i] is None:
                continue
            nd = bool(s.nodep and s.nodep[i])
            dirs = ["input", "output_existing", "inout", "no_dep"]
            true = "no_dep" if nd else {"in": "input", "out": "output_existing", "inout": "inout"}[d]
            if self.rng is not None and self.rng.random() < 0.3:
                true = self.rng.choice(dirs)
            names.append(f"pl.adir.{true}")
        return f"\"arg_directions\": [{', '.join(names)}]"

    def call(self, d: int, s: P.Call) -> None:
        k = self.prog.kernel(s.kernel)
        args = [self.use(a) for a in s.args if a is not None]
        attrs = []
        if self.ssa:
            attrs.append(self.directions(k, s))
        if s.nodep and any(s.nodep):
            attrs.append(f"\"arg_direction_overrides\": [{', '.join(str(i) for i, x in enumerate(s.nodep) if x)}]")
        kw = []
        if s.submit and s.deps:
            kw.append(f"deps=[{', '.join(self.use(t) for t in s.deps)}]")
        if attrs:
            kw.append("attrs={" + ", ".join(attrs) + "}")
        out_types = [_dims(k.params[i][1]) for i in k.results]
        if s.submit:
            rhs = f"pl.submit({', '.join([f'self.{s.kernel}'] + args + kw)})"
        else:
            rhs = f"self.{s.kernel}({', '.join(args + kw)})"
        if not s.submit and len(s.results) == 1:
            self.bind(d, s.results[0], out_types[0], rhs, s)
            return
        tmp = self.tmp()
        elems = [_tensor(t) for t in out_types] + ([TASK_ID] if s.submit else [])
        tname = tmp + ("__ssa_v0" if self.ssa else "")
        self.o.emit(d, f"{tname}: pl.Tuple[{', '.join(elems)}] = {rhs}", s)
        for i, (res, t) in enumerate(zip(s.results, out_types)):
            self.bind(d, res, t, f"{tname}[{i}]")
        if s.submit:
            self.bind(d, s.tid, "tid", f"{tname}[{len(s.results)}]")

    def cond(self, cond: tuple) -> str:
        lhs, op, rhs = cond
        lhs = self.use(lhs)
        if self.arith:
            # the same truth for every integer value: host scalar arithmetic in the condition
            lhs, rhs = ARITH_CONDS[(op, self.arith % ARITH_CONDS_OPS)](lhs, rhs)
            self.rewritten = True
        if self.ssa and op in (">", "<", ">=", "<="):
            self.rewritten = True
            flip = {">": "<", "<": ">", ">=": "<=", "<=": ">="}[op]
            return f"{rhs} {flip} {lhs}"
        return f"{lhs} {op} {rhs}"

    def scoped(self, d: int, manual: bool) -> int:
        """Open a body's runtime scope as the pipeline prints it (MaterializeRuntimeScopes, in a
        function with auto_scope, outside manual scopes); the depth of the body's statements."""
        if self.ssa and self.prog.auto_scope and not manual:
            self.o.emit(d, "with pl.scope():")
            return d + 1
        return d

    def body(self, d: int, stmts, manual: bool) -> None:
        if not stmts:
            self.o.emit(d, "pass")
        for s in stmts:
            self.stmt(d, s, manual)

    def stmt(self, d: int, s, manual: bool) -> None:
        o = self.o
        if isinstance(s, P.Call):
            self.call(d, s)
        elif isinstance(s, P.HostRead):
            idx = ", ".join(map(str, s.idx))
            self.bind(d, s.var, "f32", f"pl.tensor.read({self.use(s.tensor)}, [{idx}])", s)
            if s.live:
                o.emit(d, f"pl.tensor.write({self.use('sink')}, [{s.slot}], {self.use(s.var)})")
        elif isinstance(s, P.HostWrite):
            idx = ", ".join(map(str, s.idx))
            o.emit(d, f"pl.tensor.write({self.use(s.tensor)}, [{idx}], {float(s.value)!r})", s)
        elif isinstance(s, P.Create):
            dims = _dims(s.shape)
            extra = ""
            if s.init is not None:
                extra += f", init_value={float(s.init)!r}"
            if s.manual_dep:
                extra += ", manual_dep=True"
            self.bind(d, s.name, dims, f"pl.tensor.create([{', '.join(map(str, dims))}], dtype=pl.FP32, "
                                       f"layout=pl.TensorLayout.ND{extra})", s)
        elif isinstance(s, P.Slice):
            row = s.row if isinstance(s.row, int) else f"{self.use(s.row[0])} * {s.row[1]}"
            self.bind(d, s.name, (4, 4), f"pl.tensor.slice({self.use(s.src)}, [4, 4], [{row}, 0])", s)
        elif isinstance(s, P.Transpose):
            d0, d1 = self.ty[s.src]
            self.bind(d, s.name, (d1, d0), f"pl.tensor.transpose({self.use(s.src)}, 0, 1)", s)
        elif isinstance(s, P.Assemble):
            self.bind(d, s.target, self.ty[s.target],
                      f"pl.tensor.assemble({self.use(s.target)}, {self.use(s.src)}, [{s.row}, 0])", s)
        elif isinstance(s, P.Alias):
            self.bind(d, s.name, self.ty[s.src], self.use(s.src), s)
        elif isinstance(s, P.Swap):
            self.bind(d, s.tmp, self.ty[s.p], self.use(s.p), s)
            self.bind(d, s.p, self.ty[s.q], self.use(s.q))
            self.bind(d, s.q, self.ty[s.tmp], self.use(s.tmp))
        elif isinstance(s, P.TidNone):
            self.bind(d, s.tid, "tid", "pl.system.task_invalid()", s)
        elif isinstance(s, P.Barrier):
            self.bind(d, s.tid, "tid", f"pl.system.task_dummy(deps=[{self.use(s.tid)}])", s)
        elif isinstance(s, P.Loop):
            self.loop(d, s, manual)
        elif isinstance(s, P.If):
            self.if_(d, s, manual)
        elif isinstance(s, P.Manual):
            o.emit(d, "with pl.scope(mode=pl.ScopeMode.MANUAL):", s)
            self.body(d + 1, s.body, True)
        elif isinstance(s, P.Auto):
            o.emit(d, "with pl.scope():", s)
            self.body(d + 1, s.body, manual)
        else:
            raise TypeError(f"the printed form has no rendering of {type(s).__name__}")

    # the parts of a loop and an if another program model (printed_scalars.py) gives its own way
    def loop_range(self, d: int, s: P.Loop) -> str:
        """`pl.range(<trip>` (without its closing parenthesis), its host computation emitted first."""
        trip = self.use(s.trip) if isinstance(s.trip, str) else s.trip
        if self.arith and isinstance(s.trip, str):
            # the trip computed on the host first: ((n + 3) * 2) // 2 - 3 is n for every n
            self.ty["trip"] = "i64"
            self.rewritten = True
            name = self.new("trip")
            self.o.emit(d, f"{name}: pl.Scalar[pl.INDEX] = (pl.cast({trip}, pl.INDEX) + 3) * 2 // 2 - 3")
            trip = name
        return f"pl.{s.kind}({trip}"

    def loop_carries(self, s: P.Loop) -> list:
        """The explicit carries as (inner name, init text, type)."""
        return [(inner, self.use(init), self.ty[init]) for inner, init in s.carries]

    def loop_yields(self, s: P.Loop) -> list:
        return [self.use(y) for y in s.yields]

    def assigned(self, body) -> list:
        return _assigned(body)

    def loop(self, d: int, s, manual: bool) -> None:
        o = self.o
        rng = self.loop_range(d, s)
        explicit = self.loop_carries(s)
        implicit = [n for n in self.assigned(s.body) if n in self.env] if self.ssa else []
        implicit = [n for n in implicit if n not in {inner for inner, _, _ in explicit}]
        inits = [init for _, init, _ in explicit] + [self.use(n) for n in implicit]
        outer_env = dict(self.env)
        for inner, _, t in explicit:
            self.ty[inner] = t
        var = self.new(s.var, "idx")
        inners = [self.new(inner, "iter") for inner, _, _ in explicit] + [self.new(n, "iter") for n in implicit]
        if inners:
            comma = "," if len(inners) == 1 else ""
            attrs = ""
            if self.ssa:
                hints = []
                for i, n in enumerate([c for c, _, _ in explicit] + implicit):
                    hints.append(f"\"iter_arg_rebind_{i}\": {self.rng.random() < 0.5 if self.rng else self.ty[n] == 'tid'}")
                    if self.ty[n] == "tid":
                        hints.append(f"\"iter_arg_array_size_{i}\": 4")
                attrs = f", attrs={{{', '.join(hints)}}}"
            o.emit(d, f"for {var}, ({', '.join(inners)}{comma}) in {rng}, init_values=({', '.join(inits)}{comma}){attrs}):", s)
        else:
            o.emit(d, f"for {var} in {rng}):", s)
        b = self.scoped(d + 1, manual)
        self.body(b, s.body, manual)
        yields = self.loop_yields(s) + [self.use(n) for n in implicit]
        inner_ty = dict(self.ty)
        self.env = outer_env
        if yields:
            bases = list(s.results) + implicit
            for res, (inner, _, _) in zip(s.results, explicit):
                self.ty[res] = inner_ty[inner]
            for n in implicit:
                self.ty[n] = inner_ty[n]
            names = [self.new(n, "rv") for n in bases]
            if len(names) == 1:
                o.emit(b, f"{self.annotated(names[0], bases[0])} = pl.yield_({yields[0]})")
            else:
                o.emit(b, f"{', '.join(names)} = pl.yield_({', '.join(yields)})")

    def if_(self, d: int, s: P.If, manual: bool) -> None:
        o = self.o
        o.emit(d, f"if {self.cond(s.cond)}:", s)
        before = dict(self.env)
        before_ty = dict(self.ty)
        if not self.ssa:
            self.body(d + 1, s.then, manual)
            if s.orelse:
                o.emit(d, "else:")
                self.body(d + 1, s.orelse, manual)
            return
        then_names, else_names = self.assigned(s.then), self.assigned(s.orelse)
        joined = [n for n in then_names + [m for m in else_names if m not in then_names]
                  if n in before or (n in then_names and n in else_names)]

        def branch(stmts):
            self.env = dict(before)
            b = self.scoped(d + 1, manual)
            self.body(b, stmts, manual)
            return b, dict(self.env), dict(self.ty)

        b1, env1, ty1 = branch(s.then)
        keep = [n for n in joined if n in env1]
        # the else branch is printed after the then branch's yield
        phis = {}
        for n in keep:
            self.ty[n] = ty1[n]
        version = dict(self.version)
        for n in keep:
            phis[n] = f"{n}__phi_v{version.get(n, 0)}"
            self.version[n] = version.get(n, 0) + 1
        tail = len(o.lines)
        o.emit(d, "else:")
        b2, env2, ty2 = branch(s.orelse)
        keep = [n for n in keep if n in env2 and ty2[n] == ty1[n]]
        else_lines = o.lines[tail:]
        del o.lines[tail:]
        self._yield(b1, keep, env1, phis)
        moved = len(o.lines) - tail           # the else branch's statements move down by the yield
        for key, line in o.ids.items():
            if line > tail:
                o.ids[key] = line + moved
        o.lines.extend(else_lines)
        if not s.orelse and not keep:
            del o.lines[tail:]
        else:
            self._yield(b2, keep, env2, phis)
        self.env = dict(before)
        self.ty = {**before_ty, **{n: ty1[n] for n in keep}}
        for n in keep:
            self.env[n] = phis[n]

    def _yield(self, b: int, keep: list, env: dict, phis: dict) -> None:
        if not keep:
            return
        vals = [env[n] for n in keep]
        if len(keep) == 1:
            n = keep[0]
            self.o.emit(b, f"{self.annotated(phis[n], n)} = pl.yield_({vals[0]})")
        else:
            self.o.emit(b, f"{', '.join(phis[n] for n in keep)} = pl.yield_({', '.join(vals)})")

    # -- the program -------------------------------------------------------------------------

    def render(self) -> P.Rendered:
        prog, o = self.prog, self.o
        o.emit(0, "# pypto.program: Attack")
        o.emit(0, "import pypto.language as pl")
        o.emit(0, "")
        o.emit(0, "@pl.program")
        o.emit(0, "class Attack:")
        for k in prog.kernels:
            self.kernel(k)
        params = []
        for name, shape, d in P.TENSOR_PARAMS:
            self.ty[name] = _dims(shape)
            params.append((name, "pl.InOut[{}]" if d == "inout" else "{}"))
        self.ty["sink"] = (P.SINK_SIZE,)
        params.append(("sink", "pl.InOut[{}]"))
        for name in prog.extra:
            self.ty[name] = _dims("B")
            params.append((name, "pl.Out[{}]" if name in prog.outs else "pl.InOut[{}]"))
        texts = [f"{self.new(n)}: " + wrap.format(self.type_text(n)) for n, wrap in params]
        for s in P.SCALAR_PARAMS:
            texts.append(f"{self.new(s)}: pl.Scalar[pl.INT64]")
        flag = ", auto_scope=False" if self.ssa or not prog.auto_scope else ""
        rets = prog.returns.split(", ")
        ret_ty = _tensor(_dims("A")) if len(rets) == 1 else "tuple[" + ", ".join(_tensor(_dims("A")) for _ in rets) + "]"
        o.emit(1, f"@pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator{flag})")
        o.emit(1, f"def orch(self, {', '.join(texts)}) -> {ret_ty}:")
        d = 2
        if self.ssa and prog.auto_scope:
            o.emit(d, "with pl.scope():")
            d += 1
        self.body(d, prog.body, False)
        o.emit(d, "return " + ", ".join(self.use(r) for r in rets))
        return P.Rendered("\n".join(o.lines) + "\n", o.ids)


def printable(prog: P.Program) -> bool:
    """Programs this grammar renders: the plain DSL model (no surface constructs)."""
    return not (prog.surface or prog.functions or prog.plain_orch or prog.return_call is not None)


def render(prog: P.Program, style: str, lie: Optional[int] = None, arith: int = 0) -> P.Rendered:
    """The printed text; its `rewritten` tells whether a condition or trip is written otherwise than
    in the DSL program (else the C++ must be the DSL form's: README, "The existing compiler's
    printed IR": both forms compile to the C++ of the program they were printed from)."""
    r = _Renderer(prog, style, lie, arith)
    out = r.render()
    out.rewritten = r.rewritten
    return out


def compile_text(text: str, path: Path) -> record.Compiled:
    """`nanopass.compile_text` on the printed text, answered as record.compile_dsl answers a file."""
    import traceback

    import nanopass
    from nanopass.errors import InternalError, UserError

    try:
        result = nanopass.compile_text(text, filename=str(path))
    except UserError as e:
        span = getattr(e, "span", None)
        located = span is not None and getattr(span, "line", None)
        return record.Compiled(error_kind="user" if located else "user-unlocated", error=str(e))
    except InternalError as e:
        return record.Compiled(error_kind="internal", error=f"{type(e).__name__}: {e}")
    except RecursionError as e:
        return record.Compiled(error_kind="crash", error=f"RecursionError: {e}")
    except Exception as e:  # noqa: BLE001 - anything else is a compiler crash
        return record.Compiled(error_kind="crash", error=f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=-3)}")
    warnings = [f"{getattr(w.span, 'line', '?')}: [{w.pass_name}] {w.message}"
                for stage in (getattr(result, "stages", None) or ()) for w in stage.warnings]
    return record.Compiled(code=result.code, kernel_ids=dict(result.kernel_ids), warnings=warnings,
                           stages=list(getattr(result, "stages", None) or ()))


@dataclass(frozen=True)
class Program:
    """A DSL-model program to be checked in its printed form (`style`; `lie`: wrong hints' seed;
    `edit`: the tester's self-test, a change to the printed text or to the oracle's values)."""

    prog: P.Program
    style: str = "written"
    lie: Optional[int] = None
    edit: Optional[str] = None
    arith: int = 0          # 0: conditions and trips as the DSL program has them; else rewritten

    @property
    def source(self) -> str:
        return render(self.prog, self.style, self.lie, self.arith).source

    def check(self, host_region: str = "element") -> runner.Report:
        return check(self, host_region)

    def shrink_candidates(self):
        for cand in S._candidates(self.prog):
            yield replace(self, prog=cand)
        if self.lie is not None:
            yield replace(self, lie=None)
        if self.arith:
            yield replace(self, arith=0)

    def shrink_measure(self) -> tuple:
        return S.measure(self.prog) + ((self.lie is not None) + bool(self.arith),)

    def without_unused_kernels(self) -> "Program":
        return replace(self, prog=S.used_kernels(self.prog))


def _edited(text: str, edit: Optional[str]) -> str:
    """The tester's self-test edits of a printed text, each a different program: `swap-yield`
    exchanges the first two values a `pl.yield_` gives back, `other-input` gives the first kernel
    call reading `x` the parameter `b` (of the same shape) instead."""
    if edit == "swap-yield":
        return re.sub(r"pl\.yield_\(([^,()]+), ([^,()]+)\)", r"pl.yield_(\2, \1)", text, count=1)
    if edit == "other-input":
        return re.sub(r"(self\.\w+\(|pl\.submit\(self\.\w+, )x(__ssa_v0)?\b", r"\1b\2", text, count=1)
    return text


def check(pp: Program, host_region: str = "element", workdir: Optional[Path] = None) -> runner.Report:
    """runner.check with the printed rendering and `nanopass.compile_text` in place of the DSL file."""
    prog = pp.prog
    settings = prog.settings or runner.SETTINGS
    rendered = render(prog, pp.style, pp.lie, pp.arith)
    source = _edited(rendered.source, pp.edit)
    rep = runner.Report(source)
    seqs = runner.semantics_noting(rep, prog, rendered.lines, settings)
    if seqs is None:
        return rep
    own = workdir is None
    wd = Path(tempfile.mkdtemp(prefix="attack-printed-")) if own else workdir
    try:
        faithful = pp.style == "written" and not rendered.rewritten and pp.edit is None   # (the pipeline's
        # C++ keeps SSA suffixes where stripping them would clash: this tester's numbering, not the DSL's)
        comp, binary = compiled_binary(rep, source, wd, P.render(prog).source if faithful else None)
        if binary is not None:
            runner.runs_noting(rep, prog, binary, seqs, comp.kernel_ids, host_region, False,
                               _perturbed if pp.edit == "oracle" else None)
            if comp.stages:
                runner.values_noting(rep, comp.stages, seqs)
        return rep
    finally:
        if own:
            shutil.rmtree(wd, ignore_errors=True)


def compiled_binary(rep: runner.Report, source: str, wd: Path, dsl_source: Optional[str] = None) -> tuple:
    """Compile the printed text (`nanopass.compile_text`) and build it with the recorder: (the
    compile, the binary), or (None, None) with the refusal, the compiler's failure or g++'s
    rejection in `rep`. With `dsl_source`, the C++ must be that DSL text's too."""
    src = wd / "prog.py"
    src.write_text(source)
    comp = compile_text(source, src)
    if comp.code is None:
        if comp.error_kind == "user":
            # the compiler may quote SSA names: the tester's reasons know the base names
            rep.refusal = SSA_SUFFIX.sub("", comp.error.replace(str(src), "prog.py"))
        else:
            rep.failures.append((None, oracle.Failure(f"compiler {comp.error_kind}", comp.error)))
        return None, None
    for text in comp.warnings:
        if "free" in text.lower():
            rep.failures.append((None, oracle.Failure("warning buffer freed", f"line {text}")))
    if dsl_source is not None:
        same_code_as_the_dsl_form(rep, dsl_source, comp.code, wd)
    built = record.build(comp.code, wd)
    if built.binary is None:
        rep.failures.append((None, oracle.Failure("g++ rejects", built.gxx_error)))
        return None, None
    return comp, built.binary


def same_code_as_the_dsl_form(rep: runner.Report, dsl_source: str, code: str, wd: Path) -> None:
    """The DSL form compiles to the same C++ (when it compiles: its refusals are runner.py's)."""
    src = wd / "dsl.py"
    src.write_text(dsl_source)
    dsl = record.compile_dsl(src)
    if dsl.code is not None and dsl.code != code:
        mine, theirs = code.splitlines(), dsl.code.splitlines()
        at = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs)))
        rep.failures.append((None, oracle.Failure(
            "C++ differs from the DSL form's",
            f"line {at + 1}: {mine[at].strip() if at < len(mine) else '(end)'!r} where the DSL form's "
            f"has {theirs[at].strip() if at < len(theirs) else '(end)'!r}")))


def _perturbed(seq):
    """The tester's self-test: the sequential semantics with one parameter element's final value
    changed (the oracle must then find a value mismatch)."""
    memory = dict(seq.memory)
    for key in sorted(memory, key=repr):
        if key[0].startswith("ext:") and not key[0].endswith("sink"):
            memory[key] = ("perturbed", key)
            break
    return replace(seq, memory=memory)


# ---- the grammar's programs -------------------------------------------------------------------

def generate(seed: int, max_size=None) -> Program:
    """A random program of generate.py rendered in a style the seed picks (a third of the pipeline
    ones with wrong hints, two thirds of all with conditions and trips by host arithmetic)."""
    rng = random.Random(seed ^ 0x5EED)
    prog = plain.generate(seed, max_size)
    style = STYLES[seed % 2]
    lie = rng.randrange(1 << 30) if style == "pipeline" and rng.random() < 0.33 else None
    return Program(prog, style, lie, arith=rng.choice((0, 1, 2, 3)))


def programs(size: int, max_atoms=None, patterns=()):
    """Every program of scopes.py's grammar of this size, in each style."""
    for prog in scopes.programs(size, max_atoms=max_atoms, patterns=patterns):
        for style in STYLES:
            yield Program(prog, style)


def count(size: int, max_atoms=None, patterns=()) -> int:
    return len(STYLES) * scopes.count(size, max_atoms=max_atoms, patterns=patterns)


BLOCKS = scopes.BLOCKS
