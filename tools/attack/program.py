"""The abstract program model of the adversarial tester, and its rendering as DSL source.

A program is an orchestration function over fixed parameters (`x` In, `a` and `b` InOut of
shape [8, 4], `w` InOut [4, 4], `sink` InOut [16], scalars `n` and `c`), a set of kernels (each a
tuple of tensor parameter directions and shapes) and a statement tree. Every statement knows the
DSL line it renders to, so a failure names source lines. Nothing here reads the compiler.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Optional, Union

SHAPES = {"A": (8, 4), "B": (4, 4), "C": (4, 8),    # C: an A reshaped (surface programs)
          "D": (2, 4), "E": (1, 4),                 # D, E: inner sources of nested assembles (nested.py)
          "F": (32, 4)}                             # F: the tensor sliced at computed offsets (offsets.py)
SINK_SIZE = 16
COUNT_SIZE = 4     # `cnt`, an INT64 tensor of surface programs: host-written counts a while loop reads
TENSOR_PARAMS = (("x", "A", "in"), ("a", "A", "inout"), ("b", "A", "inout"), ("w", "B", "inout"))
SCALAR_PARAMS = ("n", "c")


@dataclass(frozen=True)
class Kernel:
    """A kernel: its tensor parameters as (direction, shape key); directions in/out/inout."""

    name: str
    params: tuple
    core: str = "AIV"   # its pl.FunctionType: AIV, or AIC (a cube kernel: surface.Cluster's)

    @property
    def results(self) -> tuple:
        """Positions of the parameters the kernel writes (and returns), in order."""
        return tuple(i for i, (d, _) in enumerate(self.params) if d != "in")


# ---- statements -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Call:
    """`results = self.k(args)` or `results, tid = pl.submit(self.k, args, deps=[...])`.

    `args[i]` is the tensor name for parameter i, or None for a trailing Out parameter the runtime
    allocates (submit only). `nodep[i]` wraps the argument in pl.no_dep. `results` has one name per
    written parameter. With `submit`, `tid` names the TaskId and `deps` the TaskIds waited for.
    """

    kernel: str
    args: tuple
    results: tuple
    nodep: tuple = ()
    submit: bool = False
    tid: Optional[str] = None
    deps: tuple = ()
    spmd: Optional[str] = None    # pl.spmd_submit's core_num expression (submit only)
    kw: tuple = ()                # extra keyword arguments as written (attrs=, dumps=, allow_early_resolve=)


@dataclass(frozen=True)
class HostRead:
    """`v = pl.tensor.read(tensor, idx)` then `pl.tensor.write(sink, [slot], v)` (keeps it live);
    when not `live`, the read alone: a dead read, whose value nothing uses."""

    var: str
    tensor: str
    idx: tuple
    slot: int
    live: bool = True


@dataclass(frozen=True)
class HostWrite:
    tensor: str
    idx: tuple
    value: float


@dataclass(frozen=True)
class Create:
    name: str
    shape: str
    init: Optional[float] = None
    manual_dep: bool = False


@dataclass(frozen=True)
class Slice:
    """`name = pl.tensor.slice(src, [4, 4], [row, 0])` of an [8, 4] tensor; `row` is an int or
    (loop variable, step): the slice starts at row step * var (var * step must stay within 0..4)."""

    name: str
    src: str
    row: Union[int, tuple]
    short: bool = False           # written `pl.slice`


@dataclass(frozen=True)
class Transpose:
    """`name = pl.tensor.transpose(src, 0, 1)` of a 2-D tensor (`pl.transpose(src, 0, -1)` when
    `short`)."""

    name: str
    src: str
    short: bool = False


@dataclass(frozen=True)
class Assemble:
    """`target = pl.assemble(target, src, [row, 0])`: copies the [4, 4] src into rows of target."""

    target: str
    src: str
    row: int


@dataclass(frozen=True)
class Alias:
    name: str
    src: str


@dataclass(frozen=True)
class Swap:
    """`tmp = p; p = q; q = tmp`."""

    p: str
    q: str
    tmp: str


@dataclass(frozen=True)
class TidNone:
    """`tid = None` (the start of a careful user's dependency chain)."""

    tid: str


@dataclass(frozen=True)
class Barrier:
    """`tid = pl.system.task_dummy(deps=[tid])`: a careful user's join node in a manual scope."""

    tid: str


class OneBlock:
    """A grammar's block statement with one statement list, in the field ``BLOCK`` names
    (``children`` / ``with_children`` and shrink.py's paths reach it through these two methods)."""

    BLOCK = "body"

    def blocks(self) -> list:
        return [getattr(self, self.BLOCK)]

    def with_blocks(self, lists):
        return replace(self, **{self.BLOCK: tuple(lists[0])})


@dataclass(frozen=True)
class Loop:
    """`for var in pl.range|parallel(trip)`; trip is an int or a scalar parameter name.

    With `carries` (inner, init) pairs the loop is written with init_values; the body then ends
    with `results = pl.yield_(yields)`.
    """

    kind: str
    var: str
    trip: Union[int, str]
    body: tuple
    carries: tuple = ()
    yields: tuple = ()
    results: tuple = ()


@dataclass(frozen=True)
class If:
    """`if cond: then else: orelse`; cond is (lhs, op, int) with lhs a scalar or loop variable."""

    cond: tuple
    then: tuple
    orelse: tuple = ()


@dataclass(frozen=True)
class Manual:
    body: tuple


@dataclass(frozen=True)
class Auto:
    body: tuple


Stmt = Union[Call, HostRead, HostWrite, Create, Slice, Transpose, Assemble, Alias, Swap, TidNone,
             Barrier, Loop, If, Manual, Auto]
BLOCKS = (Loop, If, Manual, Auto)


@dataclass(frozen=True)
class Program:
    kernels: tuple
    body: tuple
    auto_scope: bool = True
    returns: str = "a"
    surface: bool = False         # surface.py's program: the `cnt` parameter, runs for n in 0..3
    functions: tuple = ()         # surface.InlineFn definitions
    plain_orch: bool = False      # the orchestration function written as a plain `@pl.function`
    return_call: Optional[Call] = None   # `return self.k(...)` (its first result is returned)
    extra: tuple = ()             # names of more InOut [4, 4] parameters, after sink (and cnt)
    outs: tuple = ()              # those of `extra` declared `pl.Out` instead (same slots and contents)
    settings: tuple = ()          # the (n, c) values it runs for (none: runner.py's default)
    extra_shapes: tuple = ()      # (name, shape key) of those of `extra` not [4, 4] (B)

    def extra_shape(self, name: str) -> str:
        """The shape key of the `extra` parameter `name`."""
        return dict(self.extra_shapes).get(name, "B")

    def kernel(self, name: str) -> Kernel:
        for k in self.kernels:
            if k.name == name:
                return k
        raise KeyError(name)


def children(stmt) -> list:
    """The statement lists directly inside a block statement."""
    if hasattr(stmt, "blocks"):
        return stmt.blocks()
    if isinstance(stmt, If):
        return [stmt.then, stmt.orelse]
    if isinstance(stmt, BLOCKS):
        return [stmt.body]
    return []


def with_children(stmt, lists):
    if hasattr(stmt, "with_blocks"):
        return stmt.with_blocks(lists)
    if isinstance(stmt, If):
        return replace(stmt, then=tuple(lists[0]), orelse=tuple(lists[1]))
    return replace(stmt, body=tuple(lists[0]))


def without_assembles(body) -> tuple:
    """``body`` without its ``Assemble`` statements, wherever nested (programs the compiler would
    refuse for an assemble it cannot place, kept for what else they exercise)."""
    out = []
    for stmt in body:
        if isinstance(stmt, Assemble):
            continue
        blocks = children(stmt)
        out.append(with_children(stmt, [without_assembles(b) for b in blocks]) if blocks else stmt)
    return tuple(out)


def count_statements(body) -> int:
    return sum(1 + sum(count_statements(c) for c in children(s)) for s in body)


def kernels_used(kernels: tuple, body) -> tuple:
    """The kernels of `kernels` that some call of `body` submits, in `kernels`' order."""
    used = set()

    def walk(stmts):
        for st in stmts:
            if isinstance(st, Call):
                used.add(st.kernel)
            used.update(c.kernel for c in getattr(st, "calls", ()))   # (surface.Cluster's calls)
            for ch in children(st):
                walk(ch)
    walk(body)
    return tuple(k for k in kernels if k.name in used)


# ---- rendering -------------------------------------------------------------------------------

def _ty(shape: str) -> str:
    d0, d1 = SHAPES[shape]
    return f"pl.Tensor[[{d0}, {d1}], pl.FP32]"


def _fmt_float(v: float) -> str:
    return repr(float(v))


@dataclass
class Rendered:
    source: str
    lines: dict = field(default_factory=dict)   # id(stmt) -> DSL line number


class _Printer:
    def __init__(self):
        self.out: list[str] = []
        self.lines: dict = {}

    def emit(self, depth: int, text: str, stmt=None) -> None:
        self.out.append("    " * depth + text)
        if stmt is not None and id(stmt) not in self.lines:
            self.lines[id(stmt)] = len(self.out)

    def kernel(self, k: Kernel) -> None:
        params = ", ".join(
            f"p{i}: " + (_ty(s) if d == "in" else f"pl.{'Out' if d == 'out' else 'InOut'}[{_ty(s)}]")
            for i, (d, s) in enumerate(k.params))
        outs = [k.params[i][1] for i in k.results]
        ret = _ty(outs[0]) if len(outs) == 1 else "tuple[" + ", ".join(_ty(s) for s in outs) + "]"
        self.emit(1, f"@pl.function(type=pl.FunctionType.{k.core})")
        self.emit(1, f"def {k.name}(self, {params}) -> {ret}:")
        self.emit(2, "return " + ", ".join(f"p{i}" for i in k.results))
        self.emit(0, "")

    def body(self, depth: int, stmts) -> None:
        if not stmts:
            self.emit(depth, "pass")
        for s in stmts:
            self.stmt(depth, s)

    def stmt(self, d: int, s) -> None:
        if isinstance(s, Call):
            args = []
            for i, a in enumerate(s.args):
                if a is None:
                    continue
                args.append(f"pl.no_dep({a})" if s.nodep and s.nodep[i] else a)
            self.emit(d, f"{', '.join(s.results)} = {call_expr(s, args)}" if not s.submit else
                      f"{', '.join(s.results)}, {s.tid} = {call_expr(s, args)}" if len(s.results) == 1 else
                      f"({', '.join(s.results)}), {s.tid} = {call_expr(s, args)}", s)
        elif isinstance(s, HostRead):
            idx = ", ".join(map(str, s.idx))
            self.emit(d, f"{s.var} = pl.tensor.read({s.tensor}, [{idx}])", s)
            if s.live:
                self.emit(d, f"pl.tensor.write(sink, [{s.slot}], {s.var})")
        elif isinstance(s, HostWrite):
            idx = ", ".join(map(str, s.idx))
            self.emit(d, f"pl.tensor.write({s.tensor}, [{idx}], {_fmt_float(s.value)})", s)
        elif isinstance(s, Create):
            d0, d1 = SHAPES[s.shape]
            extra = ""
            if s.init is not None:
                extra += f", init_value={_fmt_float(s.init)}"
            if s.manual_dep:
                extra += ", manual_dep=True"
            self.emit(d, f"{s.name} = pl.create_tensor([{d0}, {d1}], dtype=pl.FP32{extra})", s)
        elif isinstance(s, Slice):
            row = s.row if isinstance(s.row, int) else f"{s.row[0]} * {s.row[1]}"
            op = "pl.slice" if s.short else "pl.tensor.slice"
            self.emit(d, f"{s.name} = {op}({s.src}, [4, 4], [{row}, 0])", s)
        elif isinstance(s, Transpose):
            op = "pl.transpose(" if s.short else "pl.tensor.transpose("
            self.emit(d, f"{s.name} = {op}{s.src}, 0, {-1 if s.short else 1})", s)
        elif isinstance(s, Assemble):
            self.emit(d, f"{s.target} = pl.assemble({s.target}, {s.src}, [{s.row}, 0])", s)
        elif isinstance(s, Alias):
            self.emit(d, f"{s.name} = {s.src}", s)
        elif isinstance(s, Swap):
            self.emit(d, f"{s.tmp} = {s.p}", s)
            self.emit(d, f"{s.p} = {s.q}")
            self.emit(d, f"{s.q} = {s.tmp}")
        elif isinstance(s, TidNone):
            self.emit(d, f"{s.tid} = None", s)
        elif isinstance(s, Barrier):
            self.emit(d, f"{s.tid} = pl.system.task_dummy(deps=[{s.tid}])", s)
        elif isinstance(s, Loop):
            rng = f"pl.{s.kind}({s.trip}"
            if s.carries:
                inits = ", ".join(init for _, init in s.carries)
                inner = ", ".join(inn for inn, _ in s.carries)
                comma = "," if len(s.carries) == 1 else ""
                self.emit(d, f"for {s.var}, ({inner}{comma}) in {rng}, init_values=({inits}{comma})):", s)
                self.body(d + 1, s.body)
                self.emit(d + 1, f"{', '.join(s.results)} = pl.yield_({', '.join(s.yields)})")
            else:
                self.emit(d, f"for {s.var} in {rng}):", s)
                self.body(d + 1, s.body)
        elif isinstance(s, If):
            lhs, op, rhs = s.cond
            self.emit(d, f"if {lhs} {op} {rhs}:", s)
            self.body(d + 1, s.then)
            if s.orelse:
                self.emit(d, "else:")
                self.body(d + 1, s.orelse)
        elif isinstance(s, Manual):
            self.emit(d, "with pl.manual_scope():", s)
            self.body(d + 1, s.body)
        elif isinstance(s, Auto):
            self.emit(d, "with pl.scope():", s)
            self.body(d + 1, s.body)
        elif hasattr(s, "render"):
            s.render(self, d)
        else:
            raise TypeError(s)


def call_expr(s: Call, args: Optional[list] = None) -> str:
    """The right-hand side of a call statement: `self.k(...)`, `pl.submit(...)`, `pl.spmd_submit(...)`."""
    if args is None:
        args = [f"pl.no_dep({a})" if s.nodep and s.nodep[i] else a for i, a in enumerate(s.args) if a is not None]
    kw = list(s.kw)
    if s.submit:
        if s.deps:
            kw.insert(0, f"deps=[{', '.join(s.deps)}]")
        if s.spmd is not None:
            kw.insert(0, f"core_num={s.spmd}")
        op = "pl.spmd_submit" if s.spmd is not None else "pl.submit"
        return f"{op}({', '.join([f'self.{s.kernel}'] + args + kw)})"
    return f"self.{s.kernel}({', '.join(args + kw)})"


def orch_params(prog: Program) -> str:
    """The orchestration function's parameters as written."""
    tensor_params = [
        f"{name}: " + (_ty(s) if d == "in" else f"pl.InOut[{_ty(s)}]") for name, s, d in TENSOR_PARAMS]
    tensor_params.append(f"sink: pl.InOut[pl.Tensor[[{SINK_SIZE}], pl.FP32]]")
    if prog.surface:
        tensor_params.append(f"cnt: pl.InOut[pl.Tensor[[{COUNT_SIZE}], pl.INT64]]")
    tensor_params += [f"{name}: pl.{'Out' if name in prog.outs else 'InOut'}[{_ty(prog.extra_shape(name))}]"
                      for name in prog.extra]
    return ", ".join(tensor_params + [f"{s}: pl.Scalar[pl.INT64]" for s in SCALAR_PARAMS])


def render(prog: Program, class_name: str = "Attack") -> Rendered:
    p = _Printer()
    p.emit(0, "import nanopass.dsl as pl")
    p.emit(0, "")
    p.emit(0, "")
    p.emit(0, "@pl.program")
    p.emit(0, f"class {class_name}:")
    for k in prog.kernels:
        p.kernel(k)
    for f in prog.functions:
        f.render(p, prog)
    flag = "" if prog.auto_scope else ", auto_scope=False"
    p.emit(1, "@pl.function" if prog.plain_orch else f"@pl.function(type=pl.FunctionType.Orchestration{flag})")
    rets = prog.returns.split(", ")
    ret_ty = _ty("A") if len(rets) == 1 else "tuple[" + ", ".join(_ty("A") for _ in rets) + "]"
    p.emit(1, f"def orch(self, {orch_params(prog)}) -> {ret_ty}:")
    p.body(2, prog.body)
    if prog.return_call is not None:
        p.emit(2, f"return {call_expr(prog.return_call)}", prog.return_call)
    else:
        p.emit(2, f"return {prog.returns}")
    return Rendered("\n".join(p.out) + "\n", p.lines)


def entry_arguments(n: int, c: int, surface: bool = False, extra: tuple = (), extra_shapes: tuple = ()) -> list:
    """The recorder's command-line arguments for one run: tensor slots, then scalars
    (`extra_shapes`: Program.extra_shapes)."""
    args = [f"T:{SHAPES[s][0]}x{SHAPES[s][1]}" for _, s, _ in TENSOR_PARAMS]
    args.append(f"T:{SINK_SIZE}")
    if surface:
        args.append(f"T:{COUNT_SIZE}")
    shapes = dict(extra_shapes)
    args += [f"T:{SHAPES[shapes.get(name, 'B')][0]}x{SHAPES[shapes.get(name, 'B')][1]}" for name in extra]
    args += [f"S:{n & (2**64 - 1)}", f"S:{c & (2**64 - 1)}"]
    return args


def tensor_slot_names(surface: bool = True, extra: tuple = ()) -> list:
    """The entry's tensor parameters by slot (`cnt` only in surface programs, then `extra`)."""
    return [name for name, _, _ in TENSOR_PARAMS] + ["sink"] + (["cnt"] if surface else []) + list(extra)
