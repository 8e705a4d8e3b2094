"""The PTO orchestration vocabulary: enumerations and the terminals built from them."""

from __future__ import annotations

from enum import Enum

from nanopass.language import boolean, enum_terminal, integer, real, symbol, text


class Term(Enum):
    """Base of the vocabulary's enumerations. A member hashes as itself (members are singletons,
    also across pickling): a set or dict of members is then looked up without a Python call,
    and those lookups are in every pass's inner loops."""

    __hash__ = object.__hash__


class DType(Term):
    """Element types of the DSL (``pl.FP32`` ...)."""

    FP16 = "FP16"
    FP32 = "FP32"
    FP64 = "FP64"
    BF16 = "BF16"
    INT8 = "INT8"
    INT16 = "INT16"
    INT32 = "INT32"
    INT64 = "INT64"
    UINT8 = "UINT8"
    UINT16 = "UINT16"
    UINT32 = "UINT32"
    UINT64 = "UINT64"
    BOOL = "BOOL"
    INDEX = "INDEX"
    TASK_ID = "TASK_ID"

    @property
    def is_float(self) -> bool:
        return self in _FLOATS

    @property
    def is_int(self) -> bool:
        return self in _INTS

    @property
    def is_signed(self) -> bool:
        return self in _SIGNED

    @property
    def c_type(self) -> str | None:
        """The host C++ type of a scalar of this dtype (None: no host type)."""
        return _C_TYPES.get(self)

    @property
    def runtime(self) -> str | None:
        """The runtime's ``DataType`` enumerator (None: the runtime has none)."""
        return _RUNTIME.get(self)

    @property
    def bits(self) -> int:
        return _BITS[self]


# Tuples of members (``in`` compares by identity first; an Enum's hash is a Python call).
_FLOATS = (DType.FP16, DType.FP32, DType.FP64, DType.BF16)
_SIGNED = tuple(d for d in DType if d.name.startswith("INT")) + (DType.INDEX,)
_INTS = _SIGNED + tuple(d for d in DType if d.name.startswith("UINT"))

_C_TYPES = {
    DType.FP32: "float",
    DType.FP64: "double",
    DType.INT8: "int8_t",
    DType.INT16: "int16_t",
    DType.INT32: "int32_t",
    DType.INT64: "int64_t",
    DType.INDEX: "int64_t",
    DType.UINT8: "uint8_t",
    DType.UINT16: "uint16_t",
    DType.UINT32: "uint32_t",
    DType.UINT64: "uint64_t",
    DType.BOOL: "bool",
    DType.TASK_ID: "PTO2TaskId",
}

_RUNTIME = {
    DType.FP32: "FLOAT32",
    DType.FP16: "FLOAT16",
    DType.BF16: "BFLOAT16",
    DType.INT8: "INT8",
    DType.INT16: "INT16",
    DType.INT32: "INT32",
    DType.INT64: "INT64",
    DType.INDEX: "INT64",
    DType.UINT8: "UINT8",
    DType.UINT16: "UINT16",
    DType.UINT32: "UINT32",
    DType.UINT64: "UINT64",
    DType.BOOL: "BOOL",
}

_BITS = {
    DType.FP16: 16,
    DType.FP32: 32,
    DType.FP64: 64,
    DType.BF16: 16,
    DType.INT8: 8,
    DType.INT16: 16,
    DType.INT32: 32,
    DType.INT64: 64,
    DType.UINT8: 8,
    DType.UINT16: 16,
    DType.UINT32: 32,
    DType.UINT64: 64,
    DType.BOOL: 8,
    DType.INDEX: 64,
    DType.TASK_ID: 64,
}


class FuncKind(Term):
    """``pl.FunctionType``: what kind of function a method of a program is."""

    Orchestration = "Orchestration"
    InCore = "InCore"
    AIC = "AIC"
    AIV = "AIV"
    Group = "Group"
    Opaque = "Opaque"
    Inline = "Inline"  # copied into each caller by the front end: never a kernel


class ParamDir(Term):
    """Declared direction of a parameter: plain (In), ``pl.Out[...]``, ``pl.InOut[...]``."""

    In = "In"
    Out = "Out"
    InOut = "InOut"


class ArgDir(Term):
    """Call-site direction of one task argument (how the runtime tracks it)."""

    Input = "Input"
    Output = "Output"
    InOut = "InOut"
    OutputExisting = "OutputExisting"
    NoDep = "NoDep"
    Scalar = "Scalar"


class LoopKind(Term):
    seq = "seq"
    parallel = "parallel"


class ScopeMode(Term):
    auto = "auto"
    manual = "manual"


class ScopeOrigin(Term):
    """Who placed a runtime scope: the user (``with``) or the compiler."""

    user = "user"
    compiler = "compiler"


class CoreType(Term):
    """Where a kernel runs: cube (AIC), vector (AIV), or both (a Group: MixedKernels)."""

    AIC = "AIC"
    AIV = "AIV"
    MIX = "MIX"


class DepSource(Term):
    """Where the TaskId of a dependency edge comes from (decides guarding)."""

    fresh = "fresh"  # the task_id() of a submit in scope: always valid, unguarded
    none_seed = "none_seed"  # PTO2TaskId::invalid() (a None)
    scalar_carry = "scalar_carry"  # a TaskId loop carry (invalid on the first iteration)
    array_carry = "array_carry"  # a pl.parallel TaskId carry: one guarded edge per slot
    slot_snapshot = "slot_snapshot"  # p = arr[i]: a copy of one slot
    array = "array"  # a whole pl.array of TaskIds (unwritten slots are invalid)
    barrier = "barrier"  # the result of a dummy barrier (invalid when it had no deps)
    phi = "phi"  # a TaskId merged from the branches of an if
    cell = "cell"  # a compiler cell: the latest TaskId stored in it, or invalid


class BinOp(Term):
    add = "+"
    sub = "-"
    mul = "*"
    div = "/"
    floordiv = "//"
    mod = "%"
    shl = "<<"
    shr = ">>"
    and_ = "and"
    or_ = "or"


class CmpOp(Term):
    eq = "=="
    ne = "!="
    lt = "<"
    le = "<="
    gt = ">"
    ge = ">="


class UnOp(Term):
    neg = "-"
    not_ = "not"
    invert = "~"


class Encoding(Term):
    """How a scalar task argument becomes the runtime's uint64 slot (D4)."""

    to_u64 = "to_u64"  # floats: bit copy
    cast_u64 = "cast_u64"  # integers and bools: (uint64_t)x


dtype = enum_terminal("dtype", DType)
func_kind = enum_terminal("func_kind", FuncKind)
param_dir = enum_terminal("param_dir", ParamDir)
arg_dir = enum_terminal("arg_dir", ArgDir)
loop_kind = enum_terminal("loop_kind", LoopKind)
scope_mode = enum_terminal("scope_mode", ScopeMode)
scope_origin = enum_terminal("scope_origin", ScopeOrigin)
core_type = enum_terminal("core_type", CoreType)
dep_source = enum_terminal("dep_source", DepSource)
binop = enum_terminal("binop", BinOp)
cmpop = enum_terminal("cmpop", CmpOp)
unop = enum_terminal("unop", UnOp)
encoding = enum_terminal("encoding", Encoding)

BASE_TERMINALS = [symbol, text, integer, real, boolean, dtype, func_kind, param_dir, loop_kind, scope_mode, binop, cmpop, unop]

__all__ = [
    "ArgDir",
    "BASE_TERMINALS",
    "BinOp",
    "CmpOp",
    "CoreType",
    "DType",
    "DepSource",
    "Encoding",
    "FuncKind",
    "LoopKind",
    "ParamDir",
    "ScopeMode",
    "ScopeOrigin",
    "UnOp",
    "arg_dir",
    "core_type",
    "dep_source",
    "encoding",
    "scope_origin",
]
