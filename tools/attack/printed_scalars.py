"""The printed-IR form of the scalars grammar (`--grammar printed-scalars`): scalars.py's programs
(host scalar arithmetic on every dtype, scalars passed to kernels, carried through loops and ifs,
`pl.dynamic` shapes, slices and creates of computed shapes, host element reads and writes)
rendered as the existing compiler prints a program as written (`python_print`: kernels without
`self` with `level=`/`role=`, an annotation on every assignment, `pl.tensor.create(...,
layout=pl.TensorLayout.ND)`), compiled by `nanopass.compile_text` and checked by value against
scalars.py's own semantics, setting by setting (scalars.run, scalars.compare).

Written from /work/shared/examples/printed-ir/ and the spec alone. The examples show no dynamic
dimension: the symbols are kept as the DSL declares them (`M = pl.dynamic("M")` at module level).
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Optional

from . import oracle, printed, record, runner
from . import scalars as SC

_r = SC.render_expr


def _tensor(shape_text: str, dt: str = "FP32") -> str:
    return f"pl.Tensor[{shape_text}, pl.{dt}]"


def render(prog: SC.Program, computed_types: bool = False) -> str:
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
            # a shape computed on the host is annotated only with `computed_types` (refused: RUNS.md)
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
    computed_types: bool = False     # annotate tensors of computed shapes too

    @property
    def source(self) -> str:
        return render(self.prog, self.computed_types)

    def check(self, host_region: str = "element", edit=None) -> runner.Report:
        return check(self.prog, edit=edit, computed_types=self.computed_types)

    def shrink_candidates(self):
        for cand in SC.candidates(self.prog):
            yield replace(self, prog=cand)

    def shrink_measure(self) -> tuple:
        return SC.measure(self.prog)

    def without_unused_kernels(self) -> "Program":
        return replace(self, prog=self.prog.without_unused_kernels())


def check(prog: SC.Program, edit=None, computed_types: bool = False) -> runner.Report:
    """scalars.check with the printed rendering and `nanopass.compile_text`; `edit` (tests): a
    function applied to the expected events (scalars.run's) before they are compared."""
    try:
        source = render(prog, computed_types)
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
        src = wd / "prog.py"
        src.write_text(source)
        comp = printed.compile_text(source, src)
        if comp.code is None:
            if comp.error_kind == "user":
                rep.refusal = comp.error.replace(str(src), "prog.py")
            else:
                rep.failures.append((None, oracle.Failure(f"compiler {comp.error_kind}", comp.error)))
            return rep
        built = record.build(comp.code, wd)
        if built.binary is None:
            rep.failures.append((None, oracle.Failure("g++ rejects", built.gxx_error)))
            return rep
        for setting, exp in expected:
            log, err = record.run(built.binary, SC.entry_arguments(prog, setting))
            rep.runs += 1
            rep.tasks += sum(1 for e in exp if e.kind == "task")
            where = " ".join(f"{k}={v}" for k, v in setting.items())
            if err:
                rep.failures.append((None, oracle.Failure("recorder", f"{where}: {err}")))
                continue
            fails = SC.compare(exp if edit is None else edit(exp), log, comp.kernel_ids)
            rep.failures += [(None, replace(f, detail=f"{where}: {f.detail}")) for f in fails]
        return rep
    finally:
        shutil.rmtree(wd, ignore_errors=True)


def generate(seed: int, max_size=None) -> Program:
    return Program(SC.generate(seed, max_size))


def programs(size: int, max_atoms=None, patterns=()):
    for prog in SC.programs(size, max_atoms=max_atoms, patterns=patterns):
        yield Program(prog)


def count(size: int, max_atoms=None, patterns=()) -> int:
    return SC.count(size, max_atoms=max_atoms, patterns=patterns)


BLOCKS = SC.BLOCKS
