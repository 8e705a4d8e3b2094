"""Scalar values with C semantics: integer widths, truncating division, float32 rounding, bits.

Both interpreters compute scalars the way the generated C++ does, so that their traces agree
with the compiled program: integers wrap to their type's width, ``/`` and ``%`` truncate toward
zero (the DSL's ``//`` and ``%`` print as C ``/`` and ``%``), float32 arithmetic rounds after
every operation, and a scalar becomes a runtime slot through ``to_u64`` (bit copy, zero
extended) or ``(uint64_t)`` (value conversion).

A C type is named by its C spelling (``int32_t``, ``float``, ``bool``, ``int`` for a plain
integer literal, ``long`` for a literal that does not fit an ``int``).
"""

from __future__ import annotations

import math
import operator
import struct

from nanopass.languages.terms import DType

INT_TYPES = {
    "bool": (8, False),
    "int8_t": (8, True),
    "uint8_t": (8, False),
    "int16_t": (16, True),
    "uint16_t": (16, False),
    "int32_t": (32, True),
    "int": (32, True),
    "uint32_t": (32, False),
    "int64_t": (64, True),
    "long": (64, True),
    "uint64_t": (64, False),
}
FLOAT_TYPES = {"float": 32, "double": 64}
_RANK = {8: 1, 16: 2, 32: 3, 64: 4}

# Element sizes of the runtime's DataType enumerators (runtime-api.md section 2).
ELEMENT_SIZE = {
    "FLOAT32": 4, "FLOAT16": 2, "INT32": 4, "INT16": 2, "INT8": 1, "UINT8": 1, "BFLOAT16": 2, "INT64": 8,
    "UINT64": 8, "UINT16": 2, "UINT32": 4, "BOOL": 1,
}
# The C type an element of each runtime DataType is read as on the host (None: no host type).
ELEMENT_CTYPE = {
    "FLOAT32": "float", "INT32": "int32_t", "INT16": "int16_t", "INT8": "int8_t", "UINT8": "uint8_t",
    "INT64": "int64_t", "UINT64": "uint64_t", "UINT16": "uint16_t", "UINT32": "uint32_t", "BOOL": "bool",
}


class CError(Exception):
    """An operation whose C behaviour is undefined (division by zero, a bad shift)."""


def ctype_of(dtype: DType) -> str:
    ctype = dtype.c_type
    if ctype is None or dtype is DType.TASK_ID:
        raise CError(f"{dtype.name} has no host C++ scalar type")
    return ctype


def f32(value: float) -> float:
    """``value`` rounded to the nearest float32."""
    if math.isnan(value) or math.isinf(value):
        return value
    try:
        return struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def convert(value, ctype: str):
    """``(ctype)value``: the C conversion of a Python number to ``ctype``."""
    if ctype in FLOAT_TYPES:
        value = float(value)
        return f32(value) if ctype == "float" else value
    if ctype == "bool":
        return bool(value)
    bits, signed = INT_TYPES[ctype]
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise CError(f"converting {value} to {ctype}")
        value = math.trunc(value)
    value = int(value) & ((1 << bits) - 1)
    if signed and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def to_u64(value, ctype: str) -> int:
    """``to_u64(x)`` for ``x`` of C type ``ctype``: its bytes, zero-extended."""
    if ctype == "float":
        return struct.unpack("<I", struct.pack("<f", value))[0]
    if ctype == "double":
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    bits, _ = INT_TYPES[ctype]
    return int(value) & ((1 << bits) - 1)


def cast_u64(value, ctype: str) -> int:
    """``(uint64_t)x`` for ``x`` of C type ``ctype``."""
    if ctype in FLOAT_TYPES:
        return convert(value, "uint64_t")
    return int(value) & ((1 << 64) - 1)


def from_u64(bits: int, ctype: str):
    """The ``ctype`` value held in the low bytes of ``bits`` (``from_u64<T>``, the entry unions)."""
    if ctype == "float":
        return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]
    if ctype == "double":
        return struct.unpack("<d", struct.pack("<Q", bits & (2**64 - 1)))[0]
    if ctype == "bool":
        return bool(bits & 0xFF)
    return convert(bits, ctype)


def element_bits(bits: int, runtime_dtype: str) -> int:
    """``bits`` cut to one element of ``runtime_dtype`` (what the runtime stores)."""
    return bits & ((1 << (8 * ELEMENT_SIZE[runtime_dtype])) - 1)


# -- C arithmetic ----------------------------------------------------------------------------------


def promote(ctype: str) -> str:
    """Integer promotion: types narrower than int become int."""
    if ctype in INT_TYPES and INT_TYPES[ctype][0] < 32:
        return "int"
    return ctype


def common_type(a: str, b: str) -> str:
    """The usual arithmetic conversions of C for operand types ``a`` and ``b``."""
    if "double" in (a, b):
        return "double"
    if "float" in (a, b):
        return "float"
    a, b = promote(a), promote(b)
    (wa, sa), (wb, sb) = INT_TYPES[a], INT_TYPES[b]
    if a == b:
        return a
    if sa == sb:
        return a if wa >= wb else b
    unsigned, signed = (a, b) if not sa else (b, a)
    if INT_TYPES[unsigned][0] >= INT_TYPES[signed][0]:
        return unsigned
    return signed


def literal_type(value: int) -> str:
    """The C type of a decimal integer literal."""
    if -(2**31) <= value < 2**31:
        return "int"
    if value < 2**63:
        return "long"
    return "uint64_t"


# The C spelling of each DSL binary operator (BinOp member name), and of each comparison.
SYMBOL = {"add": "+", "sub": "-", "mul": "*", "div": "/", "floordiv": "/", "mod": "%", "shl": "<<", "shr": ">>"}
COMPARE = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge}
_RING = {"+": operator.add, "-": operator.sub, "*": operator.mul}


def arith(op: str, a, b, ctype: str):
    """``a op b`` computed in C type ``ctype`` (both operands already converted to it)."""
    if op in _RING:
        return convert(_RING[op](a, b), ctype)
    if ctype in FLOAT_TYPES:
        if op == "/":
            if b == 0:
                r = math.copysign(math.inf, a) * math.copysign(1.0, b) if a != 0 else math.nan
            else:
                r = a / b
        else:
            raise CError(f"'{op}' on floating-point operands")
        return convert(r, ctype)
    if op in ("/", "%"):
        if b == 0:
            raise CError("integer division by zero")
        q = abs(a) // abs(b)
        q = q if (a >= 0) == (b >= 0) else -q
        r = q if op == "/" else a - q * b
    elif op in ("<<", ">>"):
        bits = INT_TYPES[ctype][0]
        if not 0 <= b < bits:
            raise CError(f"shift by {b} in a {bits}-bit type")
        if op == "<<":
            if a < 0:
                raise CError("left shift of a negative value")
            r = a << b
        else:
            r = a >> b
    else:
        raise CError(f"unknown operator '{op}'")
    return convert(r, ctype)
