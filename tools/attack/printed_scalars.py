"""The printed-IR form of the scalars grammar (`--grammar printed-scalars`): scalars.py's programs
(host scalar arithmetic on every dtype, scalars passed to kernels, carried through loops and ifs,
`pl.dynamic` shapes, slices and creates of computed shapes, host element reads and writes)
rendered as the existing compiler prints a program as written (`python_print`: kernels without
`self` with `level=`/`role=`, an annotation on every assignment, `pl.tensor.create(...,
layout=pl.TensorLayout.ND)`) or after its pipeline (printed.py's pipeline style: SSA names, scalar
and tensor carries and if results through `pl.yield_`, explicit scopes, `attrs=`), compiled by `nanopass.compile_text` and checked by value against
scalars.py's own semantics, setting by setting (scalars.run, scalars.compare).

Written from /work/shared/examples/printed-ir/ and the spec alone. The examples show no dynamic
dimension: the symbols are kept as the DSL declares them (`M = pl.dynamic("M")` at module level).
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from . import printed, runner
from . import scalars as SC

_r = SC.render_expr


def _tensor(shape_text: str, dt: str = "FP32") -> str:
    return f"pl.Tensor[{shape_text}, pl.{dt}]"


def render(prog: SC.Program, computed_types: bool = False, style: str = "written",
           return_param: bool = False) -> str:
    if style == "pipeline":
        return _Pipeline(prog, computed_types, return_param).render()
    out = ["# pypto.program: Attack", "import pypto.language as pl", "", 'M = pl.dynamic("M")',
           'N = pl.dynamic("N")', 'P = pl.dynamic("P")', 'Q = pl.dynamic("Q")', "", "@pl.program",
           "class Attack:"]
    for name, dts in prog.kernels:
        ps = ", ".join(["t: pl.InOut[pl.Tensor[[P, Q], pl.FP32]]"]
                       + [f"s{i}: pl.Scalar[pl.{dt}]" for i, dt in enumerate(dts)])
        out += ["    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)",
                f"    def {name}({ps}) -> pl.Tensor[[P, Q], pl.FP32]:", "        return t"]
    tparams, tensors = [], {}
    for name, direction, shape in SC.TENSOR_PARAMS:
        tensors[name] = _tensor(SC._dims(shape), SC.RESULT_DTYPE.get(name, "FP32"))
        tparams.append(f"{name}: {tensors[name] if direction == 'In' else f'pl.{direction}[{tensors[name]}]'}")
    sparams = [f"{n}: pl.Scalar[pl.{dt}]" for n, dt in prog.params]
    out += ["    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)",
            f"    def orch(self, {', '.join(tparams + sparams)}) -> pl.Tensor[[M, N], pl.FP32]:"]
    _Body(out, dict(prog.params), tensors, computed_types).body(2, prog.body)
    out.append("        return y")
    return "\n".join(out) + "\n"


class _Body:
    """Statements with their annotations: a scalar's dtype is the one scalars.py types it with (its
    first binding's, `_static_types`), a tensor's type its shape as computed."""

    def __init__(self, out: list, types: dict, tensors: dict, computed_types: bool):
        self.out, self.types, self.tensors, self.computed_types = out, types, tensors, computed_types

    def tensor(self, name: str) -> str:
        ty = self.tensors[name]
        return name if ty is None else f"{name}: {ty}"

    def scalar(self, name: str, dt: str) -> str:
        return f"{name}: pl.Scalar[pl.{self.types.setdefault(name, SC.ctype_of(dt))}]"

    def body(self, d: int, stmts) -> None:
        if not stmts:
            self.out.append("    " * d + "pass")
        for s in stmts:
            self.stmt(d, s)

    def stmt(self, d: int, s) -> None:
        ind, out = "    " * d, self.out
        if isinstance(s, SC.Let):
            out.append(f"{ind}{self.scalar(s.name, SC.type_of(s.expr, self.types))} = {_r(s.expr)}")
        elif isinstance(s, SC.Dim):
            out.append(f"{ind}{self.scalar(s.name, 'INT64')} = pl.tensor.dim({s.tensor}, {s.axis})")
        elif isinstance(s, (SC.Slice, SC.Create)):
            shape = f"[{', '.join(map(_r, s.shape))}]"
            # a shape computed on the host is annotated only with `computed_types` (refused until
            # session 23: found 60)
            fixed = self.computed_types or all(e[0] in ("lit", "sym") for e in s.shape)
            self.tensors[s.name] = _tensor(shape) if fixed else None
            rhs = (f"pl.tensor.slice({s.src}, {shape}, [{', '.join(map(_r, s.offset))}])" if isinstance(s, SC.Slice)
                   else f"pl.tensor.create({shape}, dtype=pl.FP32, layout=pl.TensorLayout.ND)")
            out.append(f"{ind}{self.tensor(s.name)} = {rhs}")
        elif isinstance(s, SC.Call):
            out.append(f"{ind}{self.tensor(s.tensor)} = "
                       f"self.{s.kernel}({', '.join([s.tensor] + [_r(a) for a in s.args])})")
        elif isinstance(s, SC.HWrite):
            out.append(f"{ind}pl.tensor.write({s.tensor}, [{_r(s.idx)}], {_r(s.value)})")
        elif isinstance(s, SC.HRead):
            out.append(f"{ind}{self.scalar(s.name, SC.RESULT_DTYPE[s.tensor])} = pl.tensor.read({s.tensor}, [{_r(s.idx)}])")
        elif isinstance(s, SC.Loop):
            b = ", ".join(map(_r, s.bounds if _r(s.bounds[2]) != "1" else s.bounds[:2]))
            if s.bounds[2] == ("lit", 1) and s.bounds[0] == ("lit", 0):
                b = _r(s.bounds[1])
            self.types[s.var] = "INDEX"
            if s.carries:
                for inner, init in s.carries:
                    self.types.setdefault(inner, SC.ctype_of(SC.type_of(init, self.types)))
                comma = "," if len(s.carries) == 1 else ""
                inner = ", ".join(c[0] for c in s.carries)
                inits = ", ".join(_r(c[1]) for c in s.carries)
                out.append(f"{ind}for {s.var}, ({inner}{comma}) in pl.range({b}, init_values=({inits}{comma})):")
                self.body(d + 1, s.body)
                for res, (inner, _) in zip(s.results, s.carries):
                    self.types.setdefault(res, self.types[inner])
                if len(s.results) == 1:
                    out.append(f"{ind}    {self.scalar(s.results[0], self.types[s.results[0]])} = pl.yield_({_r(s.yields[0])})")
                else:
                    out.append(f"{ind}    {', '.join(s.results)} = pl.yield_({', '.join(map(_r, s.yields))})")
            else:
                out.append(f"{ind}for {s.var} in pl.range({b}):")
                self.body(d + 1, s.body)
        elif isinstance(s, SC.If):
            out.append(f"{ind}if {_r(s.cond)}:")
            self.body(d + 1, s.then)
            if s.orelse:
                out.append(f"{ind}else:")
                self.body(d + 1, s.orelse)
        else:
            raise TypeError(s)


@dataclass(frozen=True)
class Program:
    """A scalars.py program checked in its printed form."""

    prog: SC.Program
    computed_types: bool = True      # annotate tensors of computed shapes too
    style: str = "written"           # or "pipeline" (printed.py's styles)
    return_param: bool = False       # pipeline: `return y__ssa_v0`, the parameter's first name (the
    #   same buffer; the last name was refused after a kernel call until session 23: found 61)

    @property
    def source(self) -> str:
        return render(self.prog, self.computed_types, self.style, self.return_param)

    def check(self, host_region: str = "element", edit=None) -> runner.Report:
        return check(self.prog, edit=edit, computed_types=self.computed_types, style=self.style,
                     return_param=self.return_param)

    def shrink_candidates(self):
        for cand in SC.candidates(self.prog):
            yield replace(self, prog=cand)
        if self.style == "pipeline":
            yield replace(self, style="written", return_param=False)

    def shrink_measure(self) -> tuple:
        return SC.measure(self.prog) + ((self.style == "pipeline"),)

    def without_unused_kernels(self) -> "Program":
        return replace(self, prog=self.prog.without_unused_kernels())


def check(prog: SC.Program, edit=None, computed_types: bool = False, style: str = "written",
          return_param: bool = False) -> runner.Report:
    """scalars.check with the printed rendering and `nanopass.compile_text`; `edit` (tests): a
    function applied to the expected events (scalars.run's) before they are compared."""
    try:
        source = render(prog, computed_types, style, return_param)
    except (SC.Invalid, KeyError) as e:
        rep = runner.Report("")
        rep.invalid = f"{type(e).__name__}: {e}"
        return rep
    rep = runner.Report(source)
    expected = []
    try:
        for s in prog.settings:
            setting = dict(s)
            expected.append((setting, SC.run(prog, setting)))
    except (SC.Invalid, KeyError, ZeroDivisionError) as e:
        rep.invalid = f"{type(e).__name__}: {e}"
        return rep
    wd = Path(tempfile.mkdtemp(prefix="attack-printed-scalars-"))
    try:
        faithful = edit is None and style == "written"
        comp, binary = printed.compiled_binary(rep, source, wd, SC.render(prog) if faithful else None)
        if binary is not None:
            SC.run_noting(rep, prog, binary, [(setting, exp if edit is None else edit(exp)) for setting, exp in expected],
                          comp.kernel_ids)
            if comp.stages:
                runner.values_noting(rep, comp.stages, prog.settings)
        return rep
    finally:
        shutil.rmtree(wd, ignore_errors=True)


def generate(seed: int, max_size=None) -> Program:
    """A random scalars.py program in a style the seed picks (one in four pipeline ones returning
    the parameter's first name, the others its last)."""
    return Program(SC.generate(seed, max_size), style=printed.STYLES[seed % 2], return_param=seed % 8 == 1)


def programs(size: int, max_atoms=None, patterns=()):
    for prog in SC.programs(size, max_atoms=max_atoms, patterns=patterns):
        for style in printed.STYLES:
            yield Program(prog, style=style)


def count(size: int, max_atoms=None, patterns=()) -> int:
    return len(printed.STYLES) * SC.count(size, max_atoms=max_atoms, patterns=patterns)


BLOCKS = SC.BLOCKS


# ---- after the existing compiler's pipeline -------------------------------------------------------

def _renamed(e, use) -> tuple:
    if e[0] == "var":
        return ("var", use(e[1]))
    return (e[0],) + tuple(_renamed(x, use) if isinstance(x, tuple) else x for x in e[1:])


def _bound(body) -> list:
    """The names a statement list binds, in first-binding order (nested blocks too)."""
    out: list = []
    for s in body:
        names = ([s.name] if isinstance(s, (SC.Let, SC.Dim, SC.Slice, SC.Create, SC.HRead)) else
                 [s.tensor] if isinstance(s, SC.Call) else
                 [c[0] for c in s.carries] + _bound(s.body) + list(s.results) if isinstance(s, SC.Loop) else
                 _bound(s.then) + _bound(s.orelse) if isinstance(s, SC.If) else [])
        out += [n for n in names if n not in out]
    return out


class _Pipeline(printed._Renderer):
    """A scalars.py program as after the existing compiler's pipeline (printed.py's pipeline style:
    SSA names, implicit carries and if results through `pl.yield_`, explicit scopes, `attrs=`)."""

    def __init__(self, prog: SC.Program, computed_types: bool, return_param: bool):
        super().__init__(prog, "pipeline")
        self.types = dict(prog.params)        # base name -> scalars.py's dtype (type_of's env)
        self.computed_types = computed_types
        self.return_param = return_param

    def ex(self, e) -> str:
        return _r(_renamed(e, self.use))

    def scalar_type(self, name: str, e=None, dt: str = "") -> str:
        dt = self.types.setdefault(name, SC.ctype_of(dt or SC.type_of(e, self.types)))
        return f"pl.Scalar[pl.{dt}]"

    def scoped(self, d: int, manual: bool) -> int:
        self.o.emit(d, "with pl.scope():")
        return d + 1

    def assigned(self, body) -> list:
        return _bound(body)

    def cond(self, cond) -> str:
        return self.ex(cond)

    def loop_range(self, d: int, s) -> str:
        b = ", ".join(map(self.ex, s.bounds if _r(s.bounds[2]) != "1" else s.bounds[:2]))
        if s.bounds[2] == ("lit", 1) and s.bounds[0] == ("lit", 0):
            b = self.ex(s.bounds[1])
        self.types[s.var] = "INDEX"
        return f"pl.range({b}"

    def loop_carries(self, s) -> list:
        return [(inner, self.ex(init), self.scalar_type(inner, init)) for inner, init in s.carries]

    def loop_yields(self, s) -> list:
        for res, (inner, _) in zip(s.results, s.carries):
            self.types.setdefault(res, self.types[inner])
        return [self.ex(y) for y in s.yields]

    def stmt(self, d: int, s, manual: bool) -> None:
        if isinstance(s, SC.Let):
            self.bind(d, s.name, self.scalar_type(s.name, s.expr), self.ex(s.expr))
        elif isinstance(s, SC.Dim):
            self.bind(d, s.name, self.scalar_type(s.name, dt="INT64"), f"pl.tensor.dim({self.use(s.tensor)}, {s.axis})")
        elif isinstance(s, (SC.Slice, SC.Create)):
            shape = f"[{', '.join(map(self.ex, s.shape))}]"
            fixed = self.computed_types or all(e[0] in ("lit", "sym") for e in s.shape)
            rhs = (f"pl.tensor.slice({self.use(s.src)}, {shape}, [{', '.join(map(self.ex, s.offset))}])"
                   if isinstance(s, SC.Slice) else f"pl.tensor.create({shape}, dtype=pl.FP32, layout=pl.TensorLayout.ND)")
            self.bind(d, s.name, _tensor(shape) if fixed else None, rhs)
        elif isinstance(s, SC.Call):
            dirs = ", ".join(["pl.adir.inout"] + ["pl.adir.scalar"] * len(s.args))
            args = ", ".join([self.use(s.tensor)] + [self.ex(a) for a in s.args])
            self.bind(d, s.tensor, self.ty[s.tensor], f"self.{s.kernel}({args}, attrs={{\"arg_directions\": [{dirs}]}})")
        elif isinstance(s, SC.HWrite):
            self.o.emit(d, f"pl.tensor.write({self.use(s.tensor)}, [{self.ex(s.idx)}], {self.ex(s.value)})")
        elif isinstance(s, SC.HRead):
            self.bind(d, s.name, self.scalar_type(s.name, dt=SC.RESULT_DTYPE[s.tensor]),
                      f"pl.tensor.read({self.use(s.tensor)}, [{self.ex(s.idx)}])")
        elif isinstance(s, SC.Loop):
            self.loop(d, s, manual)
        elif isinstance(s, SC.If):
            self.if_(d, s, manual)
        else:
            raise TypeError(s)

    def render(self) -> str:
        prog, o = self.prog, self.o
        for line in ("# pypto.program: Attack", "import pypto.language as pl", "", 'M = pl.dynamic("M")',
                     'N = pl.dynamic("N")', 'P = pl.dynamic("P")', 'Q = pl.dynamic("Q")', "", "@pl.program",
                     "class Attack:"):
            o.emit(0, line)
        for name, dts in prog.kernels:
            ps = ", ".join(["t__ssa_v0: pl.InOut[pl.Tensor[[P, Q], pl.FP32]]"]
                           + [f"s{i}__ssa_v0: pl.Scalar[pl.{dt}]" for i, dt in enumerate(dts)])
            o.emit(1, "@pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)")
            o.emit(1, f"def {name}({ps}) -> pl.Tensor[[P, Q], pl.FP32]:")
            o.emit(2, "return t__ssa_v0")
        params = []
        for name, direction, shape in SC.TENSOR_PARAMS:
            dt = SC.RESULT_DTYPE.get(name, "FP32")
            mem = f", pl.MemRef(\"mem_ddr_{len(params)}\", pl.const(0, pl.INT64), {8 * SC.RESULT_SIZE})" \
                if name in SC.RESULT_DTYPE else ""
            self.ty[name] = f"pl.Tensor[{SC._dims(shape)}, pl.{dt}{mem}]"
            params.append(f"{self.new(name)}: " + (self.ty[name] if direction == "In" else f"pl.{direction}[{self.ty[name]}]"))
        for name, dt in prog.params:
            self.ty[name] = f"pl.Scalar[pl.{dt}]"
            params.append(f"{self.new(name)}: {self.ty[name]}")
        o.emit(1, "@pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, "
                  "role=pl.Role.Orchestrator, auto_scope=False)")
        o.emit(1, f"def orch(self, {', '.join(params)}) -> pl.Tensor[[M, N], pl.FP32]:")
        o.emit(2, "with pl.scope():")
        self.body(3, prog.body, False)
        o.emit(3, f"return {'y__ssa_v0' if self.return_param else self.use('y')}")
        return "\n".join(o.lines) + "\n"
