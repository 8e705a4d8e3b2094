"""Scalars and dynamic shapes, checked by VALUE (`--grammar scalars`), written from the spec alone.

Programs over scalar parameters of every dtype a host C++ type exists for (INT8..INT64,
UINT8..UINT64, BOOL, FP32; FP16 / BF16 programs are generated too, with `--fp16`), host scalar
arithmetic and comparisons (`+ - * // %`, `/` on floats, `neg`, `not`, `and`, `or`, the six
comparisons) on them, on loop variables, `pl.tensor.dim` results and literals (near the dtype's
limits too), scalars passed to kernels, carried through `pl.range` loops (implicit carries and
`init_values`) and `if` branches, branch conditions and loop bounds (negative steps too) computed
from them, tensors with `pl.dynamic` dimensions (`x: [M, 4]`, `y: [M, N]`, shapes given at run
time), slices of them whose shapes and offsets are computed from the dimensions and scalars (slices
of slices), created tensors of computed shapes, and host element writes and reads of an INT64 and
an FP32 result tensor at computed indices.

The meaning (docs/semantics.md "scalars follow C", decisions.md D4): a scalar has its DSL dtype; an
operation on two operands of one dtype (an int literal takes the other operand's dtype, two
literals make an INDEX) gives that dtype, computed as C does: INT8/16 and UINT8/16 promoted to
`int` inside an expression and wrapped only when stored or passed; `//` and `%` truncate; FP32
rounds after every operation; a loop variable, `pl.tensor.dim` and a `pl.dynamic` symbol are
INDEX / INT64 (int64_t). A kernel's scalar argument is recorded as D4 encodes it: `(uint64_t)v`
for integers and bools (sign-extended), `to_u64(v)` for floats (the bits in the low 32), where `v`
is the argument's C value (docs/semantics.md: not first converted to the parameter's dtype). What
the kernel sees is the low bytes of its parameter's width; a mismatch there is `value scalar`, a
mismatch only in the high bytes `value scalar-encoding`. Programs docs/semantics.md rules out are
Invalid (not run): a signed overflow (undefined, as in C), a loop step not positive, an FP16 /
BF16 scalar of the orchestration or passed to a kernel, a UINT32 / UINT64 compared with a negative
literal (session 22 settled these from found/47-50, 54 and 56: `RULED_OUT`).

Checked per run, in program order against the recorder's log: each task's kernel, its scalar
arguments, and each tensor argument's buffer, start offset, shapes and strides; each host write's
element and value bits; each host read's element. Runs use several settings of the dimensions
(M, N in 1..7) and the scalars (small ones for loop bounds and offsets, limits for the others).
"""

from __future__ import annotations

import random
import shutil
import struct
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Optional

from . import oracle, record, runner
from .program import OneBlock, children

# dtype -> (kind, bits, signed, C type)
DTYPES = {
    "INT8": ("int", 8, True), "INT16": ("int", 16, True), "INT32": ("int", 32, True),
    "INT64": ("int", 64, True), "INDEX": ("int", 64, True),
    "UINT8": ("int", 8, False), "UINT16": ("int", 16, False), "UINT32": ("int", 32, False),
    "UINT64": ("int", 64, False), "BOOL": ("bool", 8, False), "FP32": ("float", 32, True),
    "FP16": ("float", 16, True), "BF16": ("float", 16, True),
}
INTS = ("INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64")
WIDE = ("INT64", "INDEX")          # int64_t: loop variables, dims and INT64 combine freely
LIT = "LIT"                        # an int literal's weak type
BLOCKS = ("range", "if")
RESULT_SIZE = 16
MAX_TRIP = 6
# Python names the C++ may not take as they are: keywords, the runtime's and the entry's names,
# macros of the headers the C++ includes (<stdio.h>, <stdint.h>, the API header)
RISKY_NAMES = ("errno", "EOF", "BUFSIZ", "INT32_MAX", "SIZE_MAX", "FOPEN_MAX", "TMP_MAX", "P_tmpdir",
               "PTO_DEVICE_FUNC", "stdout", "true", "union", "new", "a0_conv", "ext_y", "params_t0",
               "orch_args", "Tensor", "alloc_0")


class Invalid(Exception):
    """The program is outside what the tester means to generate (division by zero, a slice out of
    its source, a read of an unbound name, a trip count over MAX_TRIP): not a compiler failure."""


# ---- expressions: nested tuples ------------------------------------------------------------------
# ("lit", value)  int, float or bool literal        ("var", name)     a scalar name
# ("sym", "M")    a pl.dynamic symbol               ("bin", op, a, b) + - * // % /
# ("cmp", op, a, b)                                  ("and"|"or", a, b)  ("not", a)  ("neg", a)

PREC = {"or": 1, "and": 2, "not": 3, "cmp": 4, "+": 5, "-": 5, "*": 6, "//": 6, "%": 6, "/": 6, "neg": 7}


def _prec(e) -> int:
    if e[0] == "bin":
        return PREC[e[1]]
    if e[0] == "lit" and not isinstance(e[1], bool) and e[1] < 0:
        return PREC["neg"]
    return PREC.get(e[0], 9)


def _lit(v) -> str:
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    return str(v)


def render_expr(e, need: int = 0) -> str:
    """Python source with the fewest parentheses Python's precedence needs (the compiler must keep
    the grouping in C++)."""
    tag = e[0]
    if tag == "lit":
        s = _lit(e[1])
    elif tag in ("var", "sym"):
        s = e[1]
    elif tag == "bin" or tag == "cmp":
        p = PREC[e[1]] if tag == "bin" else PREC["cmp"]
        s = f"{render_expr(e[2], p)} {e[1]} {render_expr(e[3], p + 1)}"
    elif tag in ("and", "or"):
        p = PREC[tag]
        s = f"{render_expr(e[1], p)} {tag} {render_expr(e[2], p + 1)}"
    elif tag == "not":
        s = f"not {render_expr(e[1], PREC['not'])}"
    elif tag == "neg":
        s = f"-{render_expr(e[1], PREC['neg'] + 1)}"
    else:
        raise TypeError(e)
    return f"({s})" if _prec(e) < need else s


def expr_names(e) -> set:
    if e[0] == "var":
        return {e[1]}
    return set().union(*(expr_names(x) for x in e[1:] if isinstance(x, tuple)))


# ---- statements ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Let:
    name: str
    expr: tuple


@dataclass(frozen=True)
class Dim:
    name: str
    tensor: str
    axis: int


@dataclass(frozen=True)
class Slice:
    name: str
    src: str
    shape: tuple        # two expressions
    offset: tuple       # two expressions


@dataclass(frozen=True)
class Create:
    name: str
    shape: tuple        # two expressions


@dataclass(frozen=True)
class Call:
    kernel: str
    tensor: str
    args: tuple         # expressions, one per scalar parameter


@dataclass(frozen=True)
class HWrite:
    tensor: str         # "ri" (INT64) or "rf" (FP32)
    idx: tuple
    value: tuple


@dataclass(frozen=True)
class HRead:
    name: str
    tensor: str
    idx: tuple


@dataclass(frozen=True)
class Loop(OneBlock):
    var: str
    bounds: tuple       # (start, stop, step) expressions; step a nonzero literal
    body: tuple
    carries: tuple = ()  # explicit init_values: ((inner name, init expr), ...)
    yields: tuple = ()   # expressions yielded (explicit carries)
    results: tuple = ()  # names bound after the loop (explicit carries)


@dataclass(frozen=True)
class If:
    cond: tuple
    then: tuple
    orelse: tuple = ()

    def blocks(self) -> list:
        return [self.then, self.orelse]

    def with_blocks(self, lists) -> "If":
        return replace(self, then=tuple(lists[0]), orelse=tuple(lists[1]))


TENSOR_PARAMS = (("x", "In", ("M", 4)), ("y", "InOut", ("M", "N")),
                 ("ri", "InOut", (RESULT_SIZE,)), ("rf", "InOut", (RESULT_SIZE,)))
RESULT_DTYPE = {"ri": "INT64", "rf": "FP32"}


@dataclass(frozen=True)
class Program:
    params: tuple       # scalar parameters ((name, dtype), ...)
    kernels: tuple      # ((name, (dtype, ...)), ...): one InOut [P, Q] tensor, then the scalars
    body: tuple
    settings: tuple     # ((("M", 3), ("N", 2), (param, value), ...), ...)

    @property
    def source(self) -> str:
        return render(self)

    def check(self, host_region: str = "element") -> runner.Report:
        return check(self)

    # shrink.py's hooks
    def shrink_candidates(self):
        return candidates(self)

    def shrink_measure(self) -> tuple:
        return measure(self)

    def without_unused_kernels(self) -> "Program":
        used = set()

        def walk(body):
            for s in body:
                if isinstance(s, Call):
                    used.add(s.kernel)
                for ch in children(s):
                    walk(ch)
        walk(self.body)
        return replace(self, kernels=tuple(k for k in self.kernels if k[0] in used))


# ---- rendering -----------------------------------------------------------------------------------

def _dims(shape) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]"


def render(prog: Program, class_name: str = "Attack") -> str:
    out = ["import nanopass.dsl as pl", "", 'M = pl.dynamic("M")', 'N = pl.dynamic("N")',
           'P = pl.dynamic("P")', 'Q = pl.dynamic("Q")', "", "", "@pl.program", f"class {class_name}:"]
    for name, dts in prog.kernels:
        ps = ", ".join(["t: pl.InOut[pl.Tensor[[P, Q], pl.FP32]]"]
                       + [f"s{i}: pl.Scalar[pl.{dt}]" for i, dt in enumerate(dts)])
        out += ["    @pl.function(type=pl.FunctionType.AIV)",
                f"    def {name}(self, {ps}) -> pl.Tensor[[P, Q], pl.FP32]:", "        return t", ""]
    tparams = []
    for name, direction, shape in TENSOR_PARAMS:
        ty = f"pl.Tensor[{_dims(shape)}, pl.{RESULT_DTYPE.get(name, 'FP32')}]"
        tparams.append(f"{name}: {ty if direction == 'In' else f'pl.{direction}[{ty}]'}")
    sparams = [f"{n}: pl.Scalar[pl.{dt}]" for n, dt in prog.params]
    out += ["    @pl.function(type=pl.FunctionType.Orchestration)",
            f"    def orch(self, {', '.join(tparams + sparams)}) -> pl.Tensor[[M, N], pl.FP32]:"]
    _body(out, 2, prog.body)
    out.append("        return y")
    return "\n".join(out) + "\n"


def _body(out: list, d: int, body) -> None:
    if not body:
        out.append("    " * d + "pass")
    for s in body:
        _stmt(out, d, s)


def _stmt(out: list, d: int, s) -> None:
    ind = "    " * d
    r = render_expr
    if isinstance(s, Let):
        out.append(f"{ind}{s.name} = {r(s.expr)}")
    elif isinstance(s, Dim):
        out.append(f"{ind}{s.name} = pl.tensor.dim({s.tensor}, {s.axis})")
    elif isinstance(s, Slice):
        out.append(f"{ind}{s.name} = pl.tensor.slice({s.src}, [{', '.join(map(r, s.shape))}], "
                   f"[{', '.join(map(r, s.offset))}])")
    elif isinstance(s, Create):
        out.append(f"{ind}{s.name} = pl.create_tensor([{', '.join(map(r, s.shape))}], dtype=pl.FP32)")
    elif isinstance(s, Call):
        out.append(f"{ind}{s.tensor} = self.{s.kernel}({', '.join([s.tensor] + [r(a) for a in s.args])})")
    elif isinstance(s, HWrite):
        out.append(f"{ind}pl.tensor.write({s.tensor}, [{r(s.idx)}], {r(s.value)})")
    elif isinstance(s, HRead):
        out.append(f"{ind}{s.name} = pl.tensor.read({s.tensor}, [{r(s.idx)}])")
    elif isinstance(s, Loop):
        b = ", ".join(map(r, s.bounds if r(s.bounds[2]) != "1" else s.bounds[:2]))
        if s.bounds[2] == ("lit", 1) and s.bounds[0] == ("lit", 0):
            b = r(s.bounds[1])
        if s.carries:
            comma = "," if len(s.carries) == 1 else ""
            inner = ", ".join(c[0] for c in s.carries)
            inits = ", ".join(r(c[1]) for c in s.carries)
            out.append(f"{ind}for {s.var}, ({inner}{comma}) in pl.range({b}, init_values=({inits}{comma})):")
            _body(out, d + 1, s.body)
            out.append(f"{ind}    {', '.join(s.results)} = pl.yield_({', '.join(map(r, s.yields))})")
        else:
            out.append(f"{ind}for {s.var} in pl.range({b}):")
            _body(out, d + 1, s.body)
    elif isinstance(s, If):
        out.append(f"{ind}if {r(s.cond)}:")
        _body(out, d + 1, s.then)
        if s.orelse:
            out.append(f"{ind}else:")
            _body(out, d + 1, s.orelse)
    else:
        raise TypeError(s)


# ---- values --------------------------------------------------------------------------------------

def f32(v: float) -> float:
    try:
        return struct.unpack("<f", struct.pack("<f", v))[0]
    except OverflowError:
        return float("inf") if v > 0 else float("-inf")


def f32_bits(v: float) -> int:
    return struct.unpack("<I", struct.pack("<f", f32(v)))[0]


def f16_bits(v: float, dt: str) -> int:
    if dt == "FP16":
        return struct.unpack("<H", struct.pack("<e", v))[0]
    return f32_bits(v) >> 16      # BF16 by truncation of its FP32 bits (the values used are exact)


def wrap(v: int, bits: int, signed: bool) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >> (bits - 1) else v


def wrap_dt(v, dt: str):
    if dt == LIT:
        return int(v)           # literals fold exactly (Python ints); the context converts them
    kind, bits, signed = DTYPES[dt]
    if kind == "int":
        return wrap(int(v), bits, signed)
    if kind == "bool":
        return bool(v)
    return f32(v)


def encode(v, dt: str) -> int:
    """D4: integers and bools `(uint64_t)v`, floats `to_u64(v)` (low bits, zero-extended)."""
    kind = DTYPES[dt][0]
    if kind == "float":
        return f32_bits(v) if dt == "FP32" else f16_bits(v, dt)
    return int(v) & (2**64 - 1)


def visible(bits: int, dt: str) -> int:
    """What a kernel reading its parameter of dtype `dt` (from_u64<T>) sees: the low bytes."""
    kind, width, _ = DTYPES[dt]
    if kind == "bool":
        return bits & 0xFF
    return bits & ((1 << width) - 1)


def ctype_of(dt: str) -> str:
    return {"LIT": "INDEX"}.get(dt, dt)


def type_of(e, env: dict) -> str:
    """The dtype of an expression under the program's scalar types `env` (name -> dtype)."""
    tag = e[0]
    if tag == "lit":
        v = e[1]
        return "BOOL" if isinstance(v, bool) else "FP32" if isinstance(v, float) else LIT
    if tag == "var":
        if e[1] not in env:
            raise Invalid(f"unbound {e[1]}")
        return env[e[1]]
    if tag == "sym":
        return "INT64"
    if tag == "cmp":   # an int compared with a float: rejected as arithmetic is (frontend-behaviour.md 3.9)
        kinds = {"int" if t == LIT else DTYPES[t][0] for t in (type_of(e[2], env), type_of(e[3], env))}
        if kinds == {"int", "float"}:
            raise Invalid("an int compared with a float")
        return "BOOL"
    if tag in ("and", "or", "not"):
        return "BOOL"
    if tag == "neg":
        return type_of(e[1], env)
    a, b = type_of(e[2], env), type_of(e[3], env)
    for x, t, other in ((e[2], a, b), (e[3], b, a)):   # C types a literal past int32 `long` (one the
        # front end folds too): C's conversions, not the tester's
        if t == LIT and other != LIT and DTYPES[other][0] == "int" and DTYPES[other][1] < 64:
            v = Eval({}, {}, {}).ev(x)
            if not isinstance(v, (bool, float)) and not -2**31 <= v < 2**31:
                raise Invalid("a literal C types long against a narrower operand")
    if a != b and LIT in (a, b) and DTYPES[b if a == LIT else a][0] == "float":
        raise Invalid("an int literal in float arithmetic")   # (the compiler's INDEX and FP32)
    if a == LIT:
        return b
    if b == LIT or a == b:
        return a
    if a in WIDE and b in WIDE:
        return "INDEX" if "INDEX" in (a, b) else "INT64"
    raise Invalid(f"mixed dtypes {a} {b}")  # int and float too: frontend-behaviour.md 3.9 rejects it


class Eval:
    """Evaluates expressions; `promote`: C's promotion of narrow integers inside an expression."""

    def __init__(self, env: dict, types: dict, dims: dict, promote: bool = True):
        self.env, self.types, self.dims, self.promote = env, types, dims, promote

    def __call__(self, e, want: Optional[str] = None):
        """The value of `e`, converted to `want` (the dtype it is stored or passed as)."""
        dt = type_of(e, self.types)
        v = self.ev(e)
        return wrap_dt(v, ctype_of(want or dt))

    def _arith_dt(self, dt: str) -> str:
        if dt == LIT:
            return LIT
        if self.promote and dt in ("INT8", "INT16", "UINT8", "UINT16"):
            return "INT32"
        return ctype_of(dt)

    def ev(self, e):
        tag = e[0]
        if tag == "lit":
            return e[1] if not isinstance(e[1], float) else f32(e[1])
        if tag == "var":
            return self.env[e[1]]
        if tag == "sym":
            return self.dims[e[1]]
        if tag == "not":
            return not self.ev(e[1])
        if tag == "and":
            return bool(self.ev(e[1])) and bool(self.ev(e[2]))
        if tag == "or":
            return bool(self.ev(e[1])) or bool(self.ev(e[2]))
        dt = type_of(e, self.types)
        if tag == "neg":
            v = -self.ev(e[1])
            return f32(v) if dt != LIT and DTYPES[dt][0] == "float" else self._signed_fits(v, self._arith_dt(dt))
        a, b = self.ev(e[2]), self.ev(e[3])
        op = e[1]
        if tag == "cmp":
            for x, y in ((e[2], b), (e[3], a)):   # a wide unsigned against a negative literal: refused
                if type_of(x, self.types) in ("UINT32", "UINT64") and isinstance(y, int) and y < 0:
                    raise Invalid("a UINT32 / UINT64 compared with a negative value")
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[op]
        if dt != LIT and DTYPES[dt][0] == "float":
            a, b = f32(float(a)), f32(float(b))      # an int operand converts (C's usual conversions)
            if op == "/":
                if b == 0:
                    raise Invalid("float division by zero")
                return f32(a / b)
            return f32({"+": a + b, "-": a - b, "*": a * b}[op])
        adt = self._arith_dt(dt)
        a, b = wrap_dt(a, adt), wrap_dt(b, adt)
        if op in ("//", "%"):
            if b == 0:
                raise Invalid("division by zero")
            q = abs(a) // abs(b)
            q = q if (a >= 0) == (b >= 0) else -q
            if adt != LIT and DTYPES[adt][2] and q == 2 ** (DTYPES[adt][1] - 1):
                raise Invalid("signed division overflow")
            v = q if op == "//" else a - b * q
        else:
            v = {"+": a + b, "-": a - b, "*": a * b}[op]
        if adt == LIT and all(-2 ** 63 <= x < 2 ** 63 for x in (a, b)) and not -2 ** 63 <= v < 2 ** 63:
            raise Invalid("signed overflow of two literals")   # (C's long arithmetic: undefined)
        return self._signed_fits(v, adt)

    @staticmethod
    def _signed_fits(v, adt: str):
        """``v`` in the arithmetic type ``adt``: wrapped if unsigned; a signed overflow is undefined."""
        w = wrap_dt(v, adt)
        if adt != LIT and DTYPES[adt][2] and DTYPES[adt][0] == "int" and w != v:
            raise Invalid("signed overflow")
        return w


# ---- the sequential meaning ----------------------------------------------------------------------

@dataclass
class TView:
    buf: str             # "slot:<name>" or "new:<k>"
    off: int
    shape: tuple
    strides: tuple


@dataclass
class Expected:
    kind: str            # task, set, get
    line: int
    kernel: str = ""
    tensor: Optional[TView] = None
    scalars: list = field(default_factory=list)    # [(dtype, value)]
    unconverted: list = field(default_factory=list)   # per integer scalar: the slot of the argument's
    #   C value before its conversion to the parameter's dtype (a literal, an INDEX, an int), or None
    flat: int = 0
    value_bits: int = 0

    def describe(self) -> str:
        what = {"task": f"task {self.kernel}", "set": "host write", "get": "host read"}[self.kind]
        return f"{what} (line {self.line})"


def _lines(prog: Program) -> dict:
    """id(stmt) -> its DSL line (render's numbering)."""
    src = render(prog).splitlines()
    start = next(i for i, line in enumerate(src) if line.startswith("    def orch(")) + 2
    lines = {}
    pos = [start]

    def walk(body):
        if not body:
            pos[0] += 1
        for s in body:
            lines[id(s)] = pos[0]
            pos[0] += 1
            if isinstance(s, Loop):
                walk(s.body)
                if s.carries:
                    pos[0] += 1
            elif isinstance(s, If):
                walk(s.then)
                if s.orelse:
                    pos[0] += 1
                    walk(s.orelse)
    walk(prog.body)
    return lines


def run(prog: Program, setting: dict, promote: bool = True) -> list:
    """The expected events of one run (Invalid when the program leaves what the tester means);
    ``promote`` False: the narrow integers computed in their own widths (not the meaning)."""
    dims = {"M": setting["M"], "N": setting["N"]}
    types = {n: dt for n, dt in prog.params}
    if any(dt in ("FP16", "BF16") for _, dt in prog.params):
        raise Invalid("an FP16 / BF16 orchestration scalar")
    _static_types(prog)
    env = {n: wrap_dt(setting[n], dt) for n, dt in prog.params}
    tensors = {"x": TView("slot:x", 0, (dims["M"], 4), (4, 1)),
               "y": TView("slot:y", 0, (dims["M"], dims["N"]), (dims["N"], 1)),
               "ri": TView("slot:ri", 0, (RESULT_SIZE,), (1,)), "rf": TView("slot:rf", 0, (RESULT_SIZE,), (1,))}
    memory: dict = {}
    kernels = dict(prog.kernels)
    lines = _lines(prog)
    events: list = []
    new = [0]
    ev = Eval(env, types, dims, promote)

    def count_u32(v, what):
        if not 0 <= v < 2**31:
            raise Invalid(f"{what} {v} out of range")
        return v

    def block(body):
        for s in body:
            stmt(s)

    def assign(name, value, dt):
        if name in types and types[name] != dt and not (types[name] in WIDE and dt in WIDE):
            raise Invalid(f"{name} rebound with another dtype")
        types.setdefault(name, dt)
        env[name] = wrap_dt(value, ctype_of(types[name]))

    def stmt(s):
        line = lines.get(id(s), 0)
        if isinstance(s, Let):
            dt = ctype_of(type_of(s.expr, types))
            assign(s.name, ev(s.expr, types.get(s.name, dt)), dt)
        elif isinstance(s, Dim):
            t = tensors[s.tensor]
            axis = s.axis % len(t.shape)
            assign(s.name, t.shape[axis], "INT64")
        elif isinstance(s, Slice):
            src = tensors[s.src]
            shape = tuple(count_u32(ev(e, "INT64"), "slice extent") for e in s.shape)
            off = tuple(count_u32(ev(e, "INT64"), "slice offset") for e in s.offset)
            for d in range(2):
                if shape[d] < 1 or off[d] + shape[d] > src.shape[d]:
                    raise Invalid("slice out of its source")
            tensors[s.name] = TView(src.buf, src.off + sum(o * st for o, st in zip(off, src.strides)),
                                    shape, src.strides)
        elif isinstance(s, Create):
            shape = tuple(count_u32(ev(e, "INT64"), "create extent") for e in s.shape)
            if min(shape) < 1:
                raise Invalid("empty create")
            new[0] += 1
            tensors[s.name] = TView(f"new:{new[0]}", 0, shape, (shape[1], 1))
        elif isinstance(s, Call):
            dts = kernels[s.kernel]
            if len(dts) != len(s.args):
                raise Invalid("arity")
            if any(dt in ("FP16", "BF16") for dt in dts):
                raise Invalid("an FP16 / BF16 kernel scalar")
            scal = [(dt, ev(a, dt)) for dt, a in zip(dts, s.args)]
            raw = []
            for (dt, _), a in zip(scal, s.args):
                t = type_of(a, types)
                if t in (LIT, "INDEX") and DTYPES[dt][0] == "int":
                    raw.append(ev(a, "INDEX") & (2**64 - 1))
                elif t != LIT and DTYPES[t][0] == "int" and DTYPES[dt][0] == "int":  # its C value's slot
                    raw.append(int(ev.ev(a)) & (2**64 - 1))
                else:
                    raw.append(None)
                t = ctype_of(t)
                if t != LIT and t != "INDEX" and t != dt and not (t in WIDE and dt in WIDE):
                    if not (t == "FP32" and dt in ("FP16", "BF16")):
                        raise Invalid("argument dtype")
            events.append(Expected("task", line, kernel=s.kernel, tensor=tensors[s.tensor], scalars=scal,
                                   unconverted=raw))
        elif isinstance(s, HWrite):
            dt = RESULT_DTYPE[s.tensor]
            if ctype_of(type_of(s.value, types)) not in ((dt,) if dt == "FP32" else WIDE + (LIT, "INDEX")):
                raise Invalid("host write dtype")
            i = ev(s.idx, "INT64")
            if not 0 <= i < RESULT_SIZE:
                raise Invalid("host index")
            v = ev(s.value, dt)
            bits = encode(v, dt)
            memory[(s.tensor, i)] = bits
            events.append(Expected("set", line, tensor=tensors[s.tensor], flat=i, value_bits=bits))
        elif isinstance(s, HRead):
            dt = RESULT_DTYPE[s.tensor]
            i = ev(s.idx, "INT64")
            if not 0 <= i < RESULT_SIZE:
                raise Invalid("host index")
            bits = memory.get((s.tensor, i), 0)
            v = wrap(bits, 64, True) if dt == "INT64" else struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]
            events.append(Expected("get", line, tensor=tensors[s.tensor], flat=i))
            assign(s.name, v, dt)
        elif isinstance(s, Loop):
            start, stop, step = (ev(b, "INT64") for b in s.bounds)
            if step <= 0:
                raise Invalid("a loop step not positive")
            trips = list(range(start, stop, step))
            if len(trips) > MAX_TRIP:
                raise Invalid("too many trips")
            for inner, init in s.carries:
                assign(inner, ev(init), ctype_of(type_of(init, types)))
            types[s.var] = "INDEX"
            for i in trips:
                env[s.var] = i
                block(s.body)
                if s.carries:
                    vals = [ev(y, types[c[0]]) for y, c in zip(s.yields, s.carries)]
                    for (inner, _), v in zip(s.carries, vals):
                        env[inner] = v
            for res, (inner, _) in zip(s.results, s.carries):
                assign(res, env[inner], types[inner])
        elif isinstance(s, If):
            if type_of(s.cond, types) != "BOOL":
                raise Invalid("condition")
            block(s.then if ev(s.cond) else s.orelse)
        else:
            raise TypeError(s)

    try:
        block(prog.body)
    except KeyError as e:
        raise Invalid(f"unbound {e}") from None
    return events


def _static_types(prog: Program) -> None:
    """type_of of every expression in program order, in branches and loops no setting runs too
    (the compiler refuses what it rules out wherever it is); a literal loop step not positive."""
    types = dict(prog.params)

    def block(body):
        for s in body:
            for e in _exprs(s) if not isinstance(s, Loop) else s.bounds:
                type_of(e, types)
            if isinstance(s, Let):
                types.setdefault(s.name, ctype_of(type_of(s.expr, types)))
            elif isinstance(s, Dim):
                types.setdefault(s.name, "INT64")
            elif isinstance(s, HRead):
                types.setdefault(s.name, RESULT_DTYPE[s.tensor])
            elif isinstance(s, If):
                block(s.then)
                block(s.orelse)
            elif isinstance(s, Loop):
                if s.bounds[2][0] == "lit" and s.bounds[2][1] <= 0:
                    raise Invalid("a loop step not positive")
                for inner, init in s.carries:
                    types.setdefault(inner, ctype_of(type_of(init, types)))
                types[s.var] = "INDEX"
                block(s.body)
                for y in s.yields:
                    type_of(y, types)
                for res, (inner, _) in zip(s.results, s.carries):
                    types.setdefault(res, types[inner])

    block(prog.body)


# ---- checking a recorded run ---------------------------------------------------------------------

def entry_arguments(prog: Program, setting: dict) -> list:
    m, n = setting["M"], setting["N"]
    args = [f"T:{m}x4", f"T:{m}x{n}", f"T:{RESULT_SIZE}", f"T:{RESULT_SIZE}"]
    for name, dt in prog.params:
        v = wrap_dt(setting[name], dt)
        args.append(f"S:{encode(v, dt)}")
    return args


SLOTS = [name for name, _, _ in TENSOR_PARAMS]


def compare(exp: list, log: list, kernel_ids: dict) -> list:
    """Failures of one recorded run against its expected events."""
    names = {v: k for k, v in kernel_ids.items()}
    fails = []
    addr_of = {}
    for ev in log:
        if ev["ev"] == "arg":
            addr_of[f"slot:{SLOTS[ev['slot']]}"] = ev["t"]["addr"]
        if ev["ev"] == "fatal":
            return [oracle.Failure("runtime fatal", ev["why"])]
    # host reads are not compared as events (the compiler drops a read nothing uses); what a read
    # returns is checked through the values it flows into
    rec = [ev for ev in log if ev["ev"] in ("submit", "set")]
    exp = [e for e in exp if e.kind != "get"]
    new_addr: dict = {}
    want = {"task": "submit", "set": "set", "get": "get"}

    def buffer_ok(view: TView, addr: int) -> bool:
        if view.buf.startswith("slot:"):
            return addr_of.get(view.buf) == addr
        if view.buf in new_addr:
            return new_addr[view.buf] == addr
        if addr in addr_of.values() or addr in new_addr.values():
            return False
        new_addr[view.buf] = addr
        return True

    def add(cls, text):
        if len(fails) < 6:
            fails.append(oracle.Failure(cls, text))

    for i, e in enumerate(exp):
        if i >= len(rec):
            add("trace-mismatch", f"the recorded run ends before {e.describe()}")
            return fails
        r = rec[i]
        if r["ev"] != want[e.kind]:
            add("trace-mismatch", f"{e.describe()} recorded as {r['ev']}")
            return fails
        if e.kind == "task":
            ids = [k for k in r["kernels"] if k != -1]
            got = names.get(ids[0] if ids else -1)
            if got != e.kernel:
                add("trace-mismatch", f"{e.describe()} recorded as kernel {got}")
                return fails
            ts = r["tensors"]
            if len(ts) != 1:
                add("trace-mismatch", f"{e.describe()} has {len(ts)} tensor arguments, one expected")
                return fails
            t = ts[0]["t"]
            _check_view(e, e.tensor, t, buffer_ok, add)
            got_s = r["scalars"]
            if len(got_s) != len(e.scalars):
                add("trace-mismatch", f"{e.describe()} has {len(got_s)} scalar arguments, {len(e.scalars)} expected")
                continue
            for k, ((dt, v), bits) in enumerate(zip(e.scalars, got_s)):
                want_bits = encode(v, dt)
                if visible(bits, dt) != visible(want_bits, dt):
                    add("value scalar", f"{e.describe()} scalar {k} ({dt}) is {bits:#x}, the program means "
                                        f"{v!r} ({want_bits:#x})")
                elif bits != want_bits and bits != (e.unconverted[k] if e.unconverted else None):
                    add("value scalar-encoding", f"{e.describe()} scalar {k} ({dt}) is {bits:#x}, D4 encodes "
                                                 f"{v!r} as {want_bits:#x}")
        else:
            t = r["t"]
            if not buffer_ok(e.tensor, t["addr"]):
                add("wrong tensor", f"{e.describe()} is on another buffer")
            flat = t["off"] + sum(i * s for i, s in zip(r["idx"], t["strides"]))
            if flat != e.flat:
                add("wrong offset", f"{e.describe()} element {flat}, the program means {e.flat}")
            if e.kind == "set" and r["value"] != e.value_bits:
                add("value host write", f"{e.describe()} writes bits {r['value']:#x}, the program means "
                                        f"{e.value_bits:#x}")
    if len(rec) > len(exp):
        add("trace-mismatch", f"an extra recorded {rec[len(exp)]['ev']}")
    return fails


def _check_view(e: Expected, view: TView, t: dict, buffer_ok, add) -> None:
    if not buffer_ok(view, t["addr"]):
        add("wrong tensor", f"{e.describe()} passes another buffer")
    if tuple(t["shapes"]) != view.shape:
        add("wrong shape", f"{e.describe()} tensor shapes {t['shapes']}, the program means {list(view.shape)}")
    if t["off"] != view.off or tuple(t["strides"]) != view.strides:
        add("wrong offset", f"{e.describe()} tensor at offset {t['off']} strides {t['strides']}, the "
                            f"program means {view.off} strides {list(view.strides)}")


def check(prog: Program, workdir: Optional[Path] = None, edit=None) -> runner.Report:
    """Render, compile with nanopass, build with the recorder and run every setting; `edit`
    (tests): a function applied to the C++ before it is built."""
    source = render(prog)
    rep = runner.Report(source)
    expected = []
    try:
        for s in prog.settings:
            setting = dict(s)
            expected.append((setting, run(prog, setting)))
    except (Invalid, KeyError, ZeroDivisionError) as e:
        rep.invalid = f"{type(e).__name__}: {e}"
        return rep
    own = workdir is None
    wd = Path(tempfile.mkdtemp(prefix="attack-scalars-")) if own else workdir
    try:
        src = wd / "prog.py"
        src.write_text(source)
        comp = runner.compile_noting(rep, src)
        if comp is None:
            return rep
        built = runner.build_noting(rep, comp.code if edit is None else edit(comp.code), wd)
        if built is not None:
            run_noting(rep, prog, built.binary, expected, comp.kernel_ids)
            if comp.stages:
                runner.values_noting(rep, comp.stages, prog.settings)
        return rep
    finally:
        if own:
            shutil.rmtree(wd, ignore_errors=True)


def run_noting(rep: runner.Report, prog: Program, binary: Path, expected: list, kernel_ids: dict) -> None:
    """Run `binary` on each (setting, expected events) of `expected` and note on `rep` the runs,
    the tasks and each difference of the recorded run from the events."""
    for setting, exp in expected:
        log, err = record.run(binary, entry_arguments(prog, setting))
        rep.runs += 1
        rep.tasks += sum(1 for e in exp if e.kind == "task")
        where = " ".join(f"{k}={v}" for k, v in setting.items())
        if err:
            rep.failures.append((None, oracle.Failure("recorder", f"{where}: {err}")))
            continue
        fails = compare(exp, log, kernel_ids)
        rep.failures += [(None, replace(f, detail=f"{where}: {f.detail}")) for f in fails]


# ---- random programs -----------------------------------------------------------------------------

LIMITS = {dt: ((-(1 << (b - 1)), (1 << (b - 1)) - 1) if sg else (0, (1 << b) - 1))
          for dt, (k, b, sg) in DTYPES.items() if k == "int"}
FLOATS = (0.5, -1.25, 3.0, 1e-3, 1.5e30, -7.75, 2.0)
NARROW_FLOATS = (0.5, -1.25, 3.0, 2.0, -7.75)      # exact in FP16 and BF16


def _values(rnd: random.Random, dt: str, wild: bool) -> list:
    kind = DTYPES[dt][0]
    if kind == "bool":
        return [False, True]
    if kind == "float":
        pool = NARROW_FLOATS if dt != "FP32" else FLOATS + ((3.4e38, -3.4e38, 1e-38) if wild else ())
        return list(pool)
    lo, hi = LIMITS[dt]
    small = [v for v in (0, 1, 2, 3, -1, -2, 5, 7) if lo <= v <= hi]
    if not wild:
        return small
    return small + [lo, hi, lo + 1, hi - 1, hi // 2 + 1, (lo // 2) if lo else 1 << (DTYPES[dt][1] - 1)]


class Gen:
    """One random program: its parameters, kernels and body, built statement by statement with the
    scalar types, tensors and bounds the body binds (every expression typed, no name unbound)."""

    def __init__(self, rnd: random.Random, size: int, fp16: bool = False):
        self.r = rnd
        self.size = size
        self.left = size
        dts = list(INTS) + ["BOOL", "FP32"] + (["FP16", "BF16"] if fp16 or rnd.random() < 0.04 else [])
        wild = [(f"a{i}", rnd.choice(dts)) for i in range(rnd.randint(2, 4))]
        self.risky = [n for n in RISKY_NAMES if rnd.random() < 0.08]
        if self.risky and rnd.random() < 0.3:
            wild[0] = (self.risky.pop(), wild[0][1])
        # n: a small INT32 (loop bounds), s: a small INT64 (offsets), g: an FP32, f: a BOOL
        self.params = tuple([("n", "INT32"), ("s", "INT64"), ("g", "FP32"), ("f", "BOOL")] + wild)
        self.kernels: list = []
        self.fresh_i = 0

    def fresh(self, p: str) -> str:
        if p == "v" and self.risky and self.r.random() < 0.3:
            return self.risky.pop()
        self.fresh_i += 1
        return f"{p}{self.fresh_i}"

    # -- expressions ------------------------------------------------------------------------------

    def leaf(self, dt: str, scope: dict, small: bool = False):
        r = self.r
        names = [n for n, t in scope.items() if t == dt or (dt in WIDE and t in WIDE)]
        if small:
            names = [n for n in names if n in ("n", "s") or n.startswith(("i", "d", "k"))]
        if dt in WIDE and not small and r.random() < 0.15:
            return ("sym", r.choice("MN"))
        if names and r.random() < 0.7:
            return ("var", r.choice(names))
        kind = DTYPES[dt][0]
        if kind == "bool":
            return ("lit", r.random() < 0.5)
        if kind == "float":
            return ("lit", r.choice(FLOATS if dt == "FP32" else NARROW_FLOATS))
        if small:
            return ("lit", r.choice((0, 1, 2, 3)))
        return ("lit", r.choice(_values(r, dt, r.random() < 0.3)))

    def expr(self, dt: str, scope: dict, depth: int, small: bool = False):
        r = self.r
        kind = DTYPES[dt][0]
        if depth <= 0 or r.random() < 0.3:
            if kind == "bool" and scope and r.random() < 0.5:
                return self.cond(scope, 0)
            return self.leaf(dt, scope, small)
        if kind == "bool":
            return self.cond(scope, depth)
        if kind == "float":
            if dt != "FP32":
                return self.leaf(dt, scope)
            op = r.choice(("+", "-", "*", "/", "neg"))
            if op == "neg":
                return ("neg", self.expr(dt, scope, depth - 1))
            if op == "/":
                return ("bin", "/", self.expr(dt, scope, depth - 1), ("lit", r.choice((2.0, -0.5, 4.0, 3.0))))
            if r.random() < 0.05:       # int/float mixing: an int parameter, loop variable or literal
                ints = [n for n, t in scope.items() if t in ("INT32", "INT64", "INDEX")]
                return ("bin", op, self.expr(dt, scope, depth - 1),
                        ("var", r.choice(ints)) if ints and r.random() < 0.7 else ("lit", r.choice((2, -3))))
            return ("bin", op, self.expr(dt, scope, depth - 1), self.expr(dt, scope, depth - 1))
        signed = DTYPES[dt][2]
        ops = ["+", "-", "*", "//", "%"] + (["neg"] if signed else [])
        op = r.choice(ops)
        if op == "neg":
            return ("neg", self.expr(dt, scope, depth - 1, small))
        a = self.expr(dt, scope, depth - 1, small)
        if op in ("//", "%"):
            divs = [d for d in (2, 3, 7, -2, -3, 16) if signed or d > 0]
            if dt in WIDE and r.random() < 0.3:
                return ("bin", op, a, ("sym", r.choice("MN")))       # M, N >= 1
            return ("bin", op, a, ("lit", r.choice(divs)))
        return ("bin", op, a, self.expr(dt, scope, depth - 1, small))

    def cond(self, scope: dict, depth: int):
        r = self.r
        x = r.random()
        if depth > 0 and x < 0.2:
            return (r.choice(("and", "or")), self.cond(scope, depth - 1), self.cond(scope, depth - 1))
        if depth > 0 and x < 0.3:
            return ("not", self.cond(scope, depth - 1))
        bools = [n for n, t in scope.items() if t == "BOOL"]
        if bools and x < 0.4:
            return ("var", r.choice(bools))
        dt = r.choice([t for t in sorted(set(scope.values())) if DTYPES[ctype_of(t)][0] in ("int", "float")
                       and t not in ("FP16", "BF16")] or ["INT64"])
        op = r.choice(("<", "<=", ">", ">=", "==", "!="))
        return ("cmp", op, self.expr(dt, scope, max(depth - 1, 0)), self.expr(dt, scope, max(depth - 1, 0)))

    # -- statements -------------------------------------------------------------------------------

    def kernel(self, dts: tuple) -> str:
        for name, have in self.kernels:
            if have == dts:
                return name
        name = f"k{len(self.kernels)}"
        self.kernels.append((name, dts))
        return name

    def body(self, scope: dict, tensors: dict, depth: int, outer: dict) -> tuple:
        """Statements; `outer`: names bound outside the block (reassigning one carries it)."""
        out = []
        n = self.r.randint(1, 4)
        while n > 0 and self.left > 0:
            n -= 1
            self.left -= 1
            out += self.stmt(scope, tensors, depth, outer)
        return tuple(out)

    def stmt(self, scope: dict, tensors: dict, depth: int, outer: dict) -> list:
        r = self.r
        x = r.random()
        scalar_names = [n for n, t in scope.items() if t not in ("FP16", "BF16")]
        if x < 0.22:
            dts = tuple(r.choice([t for t in scope.values()] + ["INT64", "INT32", "FP32", "BOOL"])
                        for _ in range(r.randint(1, 3)))
            dts = tuple("INT64" if t == "INDEX" else t for t in dts)
            k = self.kernel(dts)
            t = r.choice([t for t in tensors if t != "x"])
            return [Call(k, t, tuple(self.expr(dt, scope, r.randint(0, 3)) for dt in dts))]
        if x < 0.40:
            # a new name, or a reassignment of an outer one (a carry / branch result)
            reassignable = [n for n in scalar_names if not n.startswith(("i", "acc"))]
            if reassignable and r.random() < 0.4:
                name = r.choice(reassignable)
                if name in (n for n, _ in self.params) and r.random() < 0.7:
                    name = self.fresh("v")
            else:
                name = self.fresh("v")
            dt = scope.get(name) or r.choice(list(INTS) + ["FP32", "BOOL", "INT64", "INT64"])
            e = self.expr(dt, scope, r.randint(1, 3))
            if type_of(e, scope) == LIT:
                dt = "INDEX"
            scope[name] = dt if name not in scope else scope[name]
            return [Let(name, e)]
        if x < 0.48:
            src = r.choice([t for t in tensors if tensors[t] == 2])
            name = self.fresh("d")
            scope[name] = "INT64"
            return [Dim(name, src, r.choice((0, 1, -1, -2)))]
        if x < 0.58:
            return self.slice(scope, tensors)
        if x < 0.62:
            name = self.fresh("c")
            shape = (self.extent(scope), self.extent(scope))
            tensors[name] = 2
            return [Create(name, shape)]
        if x < 0.72:
            tgt = r.choice(("ri", "rf"))
            idx = ("bin", "%", self.expr("INT64", scope, 1, small=True), ("lit", RESULT_SIZE))
            idx = ("bin", "%", ("bin", "+", idx, ("lit", RESULT_SIZE)), ("lit", RESULT_SIZE))
            val = self.expr("INT64" if tgt == "ri" else "FP32", scope, r.randint(0, 2))
            if r.random() < 0.5 and tgt == "ri":
                name = self.fresh("h")
                scope[name] = "INT64"
                back = ("bin", "%", ("bin", "+", idx, ("lit", 1)), ("lit", RESULT_SIZE))
                return [HWrite(tgt, idx, val), HRead(name, tgt, idx),
                        HWrite(tgt, back, ("bin", "-", ("var", name), ("lit", 1)))]
            return [HWrite(tgt, idx, val)]
        if depth < 2 and x < 0.88:
            return [self.loop(scope, tensors, depth)]
        if depth < 2:
            return [self.branch(scope, tensors, depth)]
        return []

    def extent(self, scope: dict):
        """An expression >= 1 on every run: M, N, a small count plus one, a dim."""
        r = self.r
        dims = [("var", n) for n, t in scope.items() if n.startswith("d")]
        return r.choice([("sym", "M"), ("sym", "N"), ("bin", "+", ("bin", "%", ("var", "n"), ("lit", 3)), ("lit", 1)),
                         ("lit", 2)] + dims)

    def slice(self, scope: dict, tensors: dict) -> list:
        """A slice of y or of an earlier slice of extents e0, e1 read with pl.tensor.dim: per axis
        the whole extent, the tail from `n % e`, the upper half, or the last element."""
        r = self.r
        src = r.choice([t for t in tensors if tensors[t] == 2 and t != "x"] or ["y"])
        out, shape, off = [], [], []
        for axis in range(2):
            if src == "y" and r.random() < 0.5:
                e = ("sym", "MN"[axis])
            else:
                d = self.fresh("d")
                scope[d] = "INT64"
                out.append(Dim(d, src, axis if r.random() < 0.7 else axis - 2))
                e = ("var", d)
            form = r.randrange(4)
            if form == 0:
                shape.append(e)
                off.append(("lit", 0))
            elif form == 1:
                o = ("bin", "%", ("bin", "+", ("bin", "%", ("var", "s"), e), e), e)      # in 0 .. e - 1
                shape.append(("bin", "-", e, o))
                off.append(o)
            elif form == 2:
                shape.append(("bin", "//", ("bin", "+", e, ("lit", 1)), ("lit", 2)))
                off.append(("bin", "//", e, ("lit", 2)))
            else:
                shape.append(("lit", 1))
                off.append(("bin", "-", e, ("lit", 1)))
        name = self.fresh("v")
        tensors[name] = 2
        return out + [Slice(name, src, tuple(shape), tuple(off))]

    def loop(self, scope: dict, tensors: dict, depth: int):
        r = self.r
        var = self.fresh("i")
        x = r.random()
        bound = r.choice((("var", "n"), ("var", "s"), ("sym", "M"), ("lit", 3)))
        if x < 0.55:
            bounds = (("lit", 0), bound, ("lit", 1))
        elif x < 0.95:
            bounds = (("bin", "-", bound, ("lit", 2)), ("bin", "+", bound, ("lit", 1)), ("lit", r.choice((1, 2))))
        else:
            bounds = (bound, ("lit", r.choice((-1, -2, 0))), ("lit", r.choice((-1, -2))))
        if r.random() < 0.3:
            # explicit carries: an INT64/INDEX accumulator and one other scalar
            dt = r.choice(("INT64", "INT32", "FP32"))
            acc = self.fresh("acc")
            init = self.expr(dt, scope, 1)
            if type_of(init, scope) == LIT:
                dt = "INDEX"
            inner = dict(scope)
            inner[acc] = dt
            inner[var] = "INDEX"
            body = self.body(inner, dict(tensors), depth + 1, scope)
            ydt = dt if dt != "INDEX" else "INT64"
            y = ("bin", r.choice(("+", "-", "*")), ("var", acc),
                 self.expr(ydt, {k: v for k, v in inner.items() if k in scope or k in (acc, var)}, 1))
            if DTYPES[ydt][0] == "float":
                y = ("bin", "+", ("var", acc), ("lit", 0.5))
            res = self.fresh("r")
            scope[res] = dt
            return Loop(var, bounds, body, ((acc, init),), (y,), (res,))
        inner = dict(scope)
        inner[var] = "INDEX"
        body = self.body(inner, dict(tensors), depth + 1, scope)
        return Loop(var, bounds, body)

    def branch(self, scope: dict, tensors: dict, depth: int):
        cond = self.cond(scope, 2)
        then = self.body(dict(scope), dict(tensors), depth + 1, scope)
        orelse = self.body(dict(scope), dict(tensors), depth + 1, scope) if self.r.random() < 0.6 else ()
        return If(cond, then, orelse)

    def settings(self) -> tuple:
        out = []
        for k in range(4):
            s = {"M": self.r.choice((1, 2, 3, 5, 7)), "N": self.r.choice((1, 2, 3, 4, 6))}
            for name, dt in self.params:
                small = name in ("n", "s")
                vals = _values(self.r, dt, wild=k > 0 and not small)
                s[name] = self.r.choice(vals)
            out.append(tuple(s.items()))
        return tuple(out)


def generate(seed: int, max_size=None, fp16: bool = False) -> Program:
    """A random valid program of up to `max_size` statements (default 10); retried until the
    tester's own semantics runs it on every setting."""
    rnd = random.Random(seed)
    for _ in range(200):
        g = Gen(rnd, max(3, max_size or 10), fp16)
        scope = dict(g.params)
        tensors = {"y": 2, "x": 2}
        body = []
        try:   # (the generator asks type_of, which may find the program ruled out)
            while g.left > 0:
                body += g.body(scope, tensors, 0, {})
            prog = _prune(Program(g.params, tuple(g.kernels), tuple(body), g.settings()))
            for s in prog.settings:
                run(prog, dict(s))
        except (Invalid, KeyError):
            continue
        if any(isinstance(s, Call) for s in _walk(prog.body)):
            return prog
    raise RuntimeError(f"no valid program for seed {seed}")


def _walk(body):
    for s in body:
        yield s
        for ch in children(s):
            yield from _walk(ch)


def _prune(prog: Program) -> Program:
    return prog.without_unused_kernels()


# ---- shrinking (shrink.py's hooks) ---------------------------------------------------------------

EXPR_FIELDS = {Let: ("expr",), Call: ("args",), HWrite: ("idx", "value"), HRead: ("idx",), If: ("cond",),
               Slice: ("shape", "offset"), Create: ("shape",), Loop: ("bounds",)}


def _size(e) -> int:
    return 1 + sum(_size(x) for x in e[1:] if isinstance(x, tuple))


def _simpler(e):
    """Expressions one step simpler than `e`: a subterm (any type; the tester's semantics drops
    the ill-typed), 0 or 1."""
    for x in e[1:]:
        if isinstance(x, tuple):
            yield x
    if e[0] != "lit":
        yield ("lit", 1)
        yield ("lit", 0)
    for i, x in enumerate(e):
        if isinstance(x, tuple):
            for y in _simpler(x):
                yield e[:i] + (y,) + e[i + 1:]


def _unwrap(s) -> list:
    if isinstance(s, Loop):
        pre = [Let(s.var, s.bounds[0])] + [Let(inner, init) for inner, init in s.carries]
        return pre + list(s.body) + [Let(res, y) for res, y in zip(s.results, s.yields)]
    return list(s.then)


def candidates(prog: Program):
    from .shrink import _get, _paths, _replace_at
    body = prog.body
    paths = list(_paths(body))
    if len(prog.settings) > 1:
        for s in prog.settings:
            yield replace(prog, settings=(s,))
    for path in paths:
        yield replace(prog, body=_replace_at(body, path, []))
    for path in paths:
        s = _get(body, path)
        if isinstance(s, (Loop, If)):
            yield replace(prog, body=_replace_at(body, path, _unwrap(s)))
        if isinstance(s, If) and s.orelse:
            yield replace(prog, body=_replace_at(body, path, list(s.orelse)))
            yield replace(prog, body=_replace_at(body, path, [replace(s, orelse=())]))
    used = set().union(*(expr_names(e) for st in _walk(body) for e in _exprs(st)), set())
    for name, _ in prog.params:
        if name not in used and name not in ("n", "s"):
            yield replace(prog, params=tuple(p for p in prog.params if p[0] != name),
                          settings=tuple(tuple(kv for kv in st if kv[0] != name) for st in prog.settings))
    for path in paths:
        s = _get(body, path)
        for fname in EXPR_FIELDS.get(type(s), ()):
            val = getattr(s, fname)
            items = list(val) if isinstance(val[0], tuple) else [val]
            for k, e in enumerate(items):
                for simple in _simpler(e):
                    new = items[:k] + [simple] + items[k + 1:]
                    yield replace(prog, body=_replace_at(body, path, [
                        replace(s, **{fname: tuple(new) if isinstance(val[0], tuple) else simple})]))


def _exprs(s) -> list:
    out = []
    for fname in EXPR_FIELDS.get(type(s), ()):
        val = getattr(s, fname)
        out += list(val) if val and isinstance(val[0], tuple) else [val]
    if isinstance(s, Loop):
        out += [c[1] for c in s.carries] + list(s.yields)
    return out


def measure(prog: Program) -> tuple:
    stmts = list(_walk(prog.body))
    return (len(stmts), sum(_size(e) for s in stmts for e in _exprs(s)), len(prog.settings), len(prog.params))


# ---- the bounded-exhaustive enumeration ----------------------------------------------------------
# Size k: for every scalar dtype, programs whose tasks pass every expression of exactly k - 1
# operators (size 1: a leaf) over the leaves {parameter p, parameter q, a small literal, a literal at
# the dtype's limit} and the dtype's operators (ints: + - * // % and neg for signed ones; the
# divisor of // and % a literal 3 or -3; FP32: + - * and / by 2.0; BOOL: and, or, not over p, q and
# the comparison p < q of INT32 operands), each run for p, q at the dtype's limits and small values.

ENUM_DTYPES = INTS + ("BOOL", "FP32")


def _leaves(dt: str) -> list:
    kind = DTYPES[dt][0]
    if kind == "bool":
        return [("var", "p"), ("var", "q"), ("lit", True)]
    if kind == "float":
        return [("var", "p"), ("var", "q"), ("lit", 0.5), ("lit", 3.0e38)]
    lo, hi = LIMITS[dt]
    return [("var", "p"), ("var", "q"), ("lit", 1), ("lit", hi)]


def _exprs_of(dt: str, k: int) -> list:
    if k == 0:
        return _leaves(dt)
    kind, _, signed = DTYPES[dt]
    out = []
    if kind == "bool":
        for a in _exprs_of(dt, k - 1):
            out.append(("not", a))
        for j in range(k):
            for a in _exprs_of(dt, j):
                for b in _exprs_of(dt, k - 1 - j):
                    out += [("and", a, b), ("or", a, b)]
        return out
    if kind == "float":
        ops = ("+", "-", "*")
    else:
        ops = ("+", "-", "*")
        for a in _exprs_of(dt, k - 1):
            out += [("bin", "//", a, ("lit", 3)), ("bin", "%", a, ("lit", 3))]
            if signed:
                out += [("bin", "//", a, ("lit", -3)), ("bin", "%", a, ("lit", -3)), ("neg", a)]
    if kind == "float":
        for a in _exprs_of(dt, k - 1):
            out += [("bin", "/", a, ("lit", 2.0)), ("neg", a)]
    for j in range(k):
        for a in _exprs_of(dt, j):
            for b in _exprs_of(dt, k - 1 - j):
                out += [("bin", op, a, b) for op in ops]
    return out


def _enum_settings(dt: str) -> tuple:
    kind = DTYPES[dt][0]
    if kind == "bool":
        pairs = [(False, False), (False, True), (True, False), (True, True)]
    elif kind == "float":
        pairs = [(1.5, -2.25), (3.4e38, 3.4e38), (-7.75, 0.0)]
    else:
        lo, hi = LIMITS[dt]
        pairs = [(hi, 1), (lo, -1 if lo else 3), (hi - 1, lo), (7, hi // 2 + 1)]
    return tuple((("M", 2), ("N", 3), ("p", p), ("q", q)) for p, q in pairs)


TASKS_PER_PROGRAM = 16


def programs(size: int, max_atoms=None, patterns=()):
    """Every program of size `size` (module comment above: expressions of size - 1 operators), the
    tasks of one dtype split into programs of TASKS_PER_PROGRAM kernel calls."""
    if patterns:
        raise ValueError("the scalars grammar has no shapes")
    for dt in ENUM_DTYPES:
        es = [e for e in _exprs_of(dt, size - 1) if _defined(e, dt)]
        for k in range(0, len(es), TASKS_PER_PROGRAM):
            calls = tuple(Call("k0", "y", (e,)) for e in es[k:k + TASKS_PER_PROGRAM])
            prog = Program((("p", dt), ("q", dt)), (("k0", (dt,)),), calls, _enum_settings(dt))
            yield prog


def _defined(e, dt: str) -> bool:
    """Whether C defines ``e`` on every setting of the enumeration (no signed overflow: a program
    holding one has no meaning, docs/semantics.md)."""
    prog = Program((("p", dt), ("q", dt)), (("k0", (dt,)),), (Call("k0", "y", (e,)),), _enum_settings(dt))
    try:
        for setting in prog.settings:
            run(prog, dict(setting))
    except Invalid:
        return False
    return True


def count(size: int, max_atoms=None, patterns=()) -> int:
    return sum(1 for _ in programs(size, max_atoms, patterns))


# ---- the smallest program of each class found on land41 -------------------------------------------
# FOUND: fixed in session 22 (the printer's `-(-s)`, names C++ or a header reserves) or settled as
# the meaning (47, 48: docs/semantics.md states C's promotion and the slot of the C value; the
# tester follows it): found.py lists them in FOUND, where each must pass. RULED_OUT: programs
# docs/semantics.md now rules out, which the tester no longer runs (Invalid): each refused by the
# compiler but 54, whose signed overflow is undefined.

def _one(params, kernels, body, **setting) -> Program:
    return Program(tuple(params), tuple(kernels), tuple(body), ((("M", 2), ("N", 3)) + tuple(setting.items()),))


def _neg2(e):
    return ("neg", ("neg", e))


FOUND = {
    "45-double-negation-printed-as-a-decrement": (
        "value scalar",
        "scalars grammar (--seed 41, scalars410000022, shrunk by hand): `-(-s)` passed to a kernel is printed `--s`, a C++ "
        "pre-decrement: the task gets s - 1 and s itself is decremented for the rest of the program "
        "(46: the same of an expression is no lvalue and g++ rejects it; 51: a later slice offset "
        "read from s is off by one row; 52: of N, a shape; `-(-i)` of a loop variable never ends "
        "the loop: the run times out, class 'compiler timeout', scalars420000139)",
        _one([("s", "INT64")], [("k0", ("INT64",))], [Call("k0", "y", (_neg2(("var", "s")),))], s=5)),
    "46-double-negation-of-an-expression-rejected-by-gxx": (
        "g++ rejects",
        "scalars grammar (--seed 41, scalars410000008, shrunk by hand): `-(-(s + 1))` is printed `--(s + 1)`: 'lvalue "
        "required as decrement operand' (45's printer slip on an expression)",
        _one([("s", "INT64")], [("k0", ("INT64",))],
             [Call("k0", "y", (_neg2(("bin", "+", ("var", "s"), ("lit", 1))),))], s=5)),
    "47-narrow-int-overflow-in-an-expression-computed-in-int": (
        "value scalar (narrow ints promoted)",
        "settled: docs/semantics.md states C's promotion (`a + 1 > 0` is true), the tester follows it. "
        "scalars grammar (--seed 41, scalars410000079, shrunk by hand): a: INT16 = 32767; `a + 1 > 0` has INT16 operands, so "
        "a + 1 is the INT16 -32768 (docs/semantics.md: scalars follow C's integer widths) and the "
        "comparison is False; the C++ computes a + 1 in int and passes True. Naming the sum first "
        "(`t = a + 1` then `t > 0`) makes an int16_t t and passes False: the meaning depends on "
        "whether an intermediate is named (also // and % of an INT8/INT16/UINT8/UINT16 sum)",
        _one([("a", "INT16")], [("k0", ("BOOL",))],
             [Call("k0", "y", (("cmp", ">", ("bin", "+", ("var", "a"), ("lit", 1)), ("lit", 0)),))], a=32767)),
    "48-narrow-unsigned-argument-passed-with-high-bits": (
        "value scalar-encoding",
        "settled: docs/semantics.md says the slot is `(uint64_t)` of the argument's C value (the int -1), the "
        "tester follows it. scalars grammar (exhaustive size 2, shrunk): p: UINT8 = 0; `p - 1` is the UINT8 255, which D4 "
        "passes as (uint64_t)255 = 0xff; the C++ passes (uint64_t)(p - 1) computed in int, "
        "0xffffffffffffffff. A kernel reading its UINT8 parameter sees 255 either way (the same with "
        "INT8/INT16 values that wrap: 127 + 1 arrives as 0x80, D4 says 0xffffffffffffff80)",
        _one([("p", "UINT8")], [("k0", ("UINT8",))], [Call("k0", "y", (("bin", "-", ("var", "p"), ("lit", 1)),))],
             p=0)),
    "51-double-negation-decrements-a-slice-offset": (
        "wrong offset",
        "45's decrement seen in a shape: `t = -(-s)` is printed `int64_t t = --s;`, so the slice "
        "`pl.tensor.slice(y, [1, 1], [s, 0])` after it starts one row early",
        _one([("s", "INT64")], [("k0", ("INT64",))],
             [Let("t", _neg2(("var", "s"))), Slice("w", "y", (("lit", 1), ("lit", 1)), (("var", "s"), ("lit", 0))),
              Call("k0", "w", (("var", "t"),))], s=1)),
    "52-double-negation-of-a-dynamic-dim-shrinks-a-shape": (
        "wrong shape",
        "scalars grammar (--seed 42, scalars420000074, shrunk by hand): `-(-N)` of the pl.dynamic symbol N is "
        "printed `--N`, which decrements N: the task gets N - 1, and the slice `[M, N]` after it is "
        "one column narrower than y (in a loop, one narrower each iteration, down to 0 and "
        "4294967294)",
        _one([], [("k0", ("INT64",))],
             [Call("k0", "y", (_neg2(("sym", "N")),)),
              Slice("w", "y", (("sym", "M"), ("sym", "N")), (("lit", 0), ("lit", 0))),
              Call("k0", "w", (("lit", 1),))])),
    "53-scalar-named-like-a-header-macro-rejected-by-gxx": (
        "g++ rejects",
        "found by hand with the scalars grammar's model (now in its names): a scalar named `errno` "
        "is printed `int32_t errno = a + 1;`, and errno is a macro of the included headers. The same "
        "for EOF, BUFSIZ, SEEK_SET, FILENAME_MAX, FOPEN_MAX, TMP_MAX, L_tmpnam, P_tmpdir (<stdio.h>), "
        "INT32_MAX, UINT64_MAX, SIZE_MAX (<stdint.h>), PTO_DEVICE_FUNC, PTO2_ERROR_NONE (the API "
        "header), for a scalar parameter named errno and a pl.dynamic(\"EOF\"); keywords (new, union, "
        "true), stdout, NULL, offsetof, LOG_ERROR, PTO2_SCOPE and the C++'s own names are renamed",
        _one([("a", "INT32")], [("k0", ("INT32",))],
             [Let("errno", ("bin", "+", ("var", "a"), ("lit", 1))), Call("k0", "y", (("var", "errno"),))], a=5)),
    "55-double-negation-of-a-float-written-by-the-host": (
        "value host write",
        "scalars grammar (--seed 42, scalars420000539, shrunk by shrink.py): `pl.tensor.write(rf, [1], "
        "-(-g))` with g: FP32 = 0.001 writes g - 1.0 (`--g`, 45's decrement of a float), and g stays "
        "decremented for the task after it",
        _one([("g", "FP32")], [], [HWrite("rf", ("lit", 1), _neg2(("var", "g")))], g=0.001)),
    "57-scalar-parameter-named-like-a-cpp-keyword-rejected-by-gxx": (
        "g++ rejects",
        "scalars grammar (--seed 43, e.g. scalars430000199 and 234, shrunk by hand): a scalar "
        "PARAMETER keeps its name in the C++ (a variable is renamed): `union: pl.Scalar[pl.INT32]` is "
        "printed `union { uint64_t u64; int32_t val; } union_conv; ... int32_t union = ...`. The same "
        "for new, true (keywords), orch_args (shadows the entry's parameter, then "
        "`orch_args.tensor(0)` fails), Arg and Tensor (the API's types: a later `Tensor v = ...` "
        "fails) and 53's macros",
        _one([("union", "INT32")], [("k0", ("INT32",))],
             [Call("k0", "y", (("bin", "+", ("var", "union"), ("lit", 1)),))], union=5)),
}

RULED_OUT = {
    "49-negative-loop-step-refused": (
        "refusal",
        "scalars grammar (--seed 41): `for i in pl.range(3, 0, -1)` is refused ('a loop step must be "
        "positive'); dsl.md allows `pl.range(start, stop, step)` and says nothing of the step's sign "
        "(Python's range counts down). The reference's `i < stop` loop form could not run it; a "
        "refusal is better than its zero trips, but the spec does not rule the program out",
        _one([], [("k0", ("INT64",))], [Loop("i", (("lit", 3), ("lit", 0), ("lit", -1)),
                                             (Call("k0", "y", (("var", "i"),)),))])),
    "50-fp16-scalar-parameter-refused": (
        "refusal",
        "scalars grammar (--seed 42): an orchestration parameter `h: pl.Scalar[pl.FP16]` is refused "
        "('... cannot be passed to an orchestration function (no host C++ type)'; BF16 alike). dsl.md "
        "lists FP16 and BF16 among `pl.Scalar` dtypes; the runtime has DataType FLOAT16/BFLOAT16 and "
        "to_u64 takes any 2-byte trivially copyable type, so the bits could pass through unchanged",
        _one([("h", "FP16")], [("k0", ("FP16",))], [Call("k0", "y", (("var", "h"),))], h=0.5)),
    "54-signed-overflow-in-a-condition-is-undefined-in-the-cpp": (
        "trace-mismatch",
        "scalars grammar (--seed 42, scalars420000137, shrunk by hand): a: INT32 = -2147483648; `-a` "
        "is the INT32 -2147483648 (C's widths wrap), so `if -a == a:` takes the then branch (task "
        "k0); the C++ compares `-a == a` in int32_t, a signed overflow, which g++ folds to `a == 0` "
        "(undefined behaviour) even at -O0, and submits k1. INT64 alike; `a + 1 < a` with a = "
        "INT32_MAX passes False where the program means True (a value scalar)",
        _one([("a", "INT32")], [("k0", ("INT64",)), ("k1", ("INT64",))],
             [If(("cmp", "==", ("neg", ("var", "a")), ("var", "a")), (Call("k0", "y", (("lit", 1),)),),
                 (Call("k1", "y", (("lit", 2),)),))], a=-2**31)),
    "56-comparison-of-an-unsigned-with-a-negative-literal-refused": (
        "refusal",
        "scalars grammar (--seed 42, 1 program; shrunk by hand): u: UINT32; `u < -2` (or `u < 1 - 3`) is "
        "refused ('cannot compare UINT32 with -2: C++ compares them as uint32_t, where a negative "
        "value is a huge one'; UINT64 alike). The program has a meaning: the literal takes u's dtype "
        "(4294967294), which is also what C++ computes (docs/semantics.md: scalars follow C); the same "
        "comparison of a UINT8 compiles and runs right",
        _one([("u", "UINT32")], [("k0", ("BOOL",))],
             [Call("k0", "y", (("cmp", "<", ("var", "u"), ("lit", -2)),))], u=5)),
}
