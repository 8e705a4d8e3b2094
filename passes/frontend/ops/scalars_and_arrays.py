"""Scalars and host arrays: ``pl.const(value, dtype)`` (an ``EXPRESSION`` form: read wherever a
scalar expression is, and as the value of an assignment), ``pl.array.create``.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.languages import surface as S

import math

from nanopass.languages.terms import DType

from ..consteval import constant_value
from ..limits import MAX_ARRAY_SIZE
from ..registry import EXPRESSION, VALUE, dsl_op
from ..type_reader import SCALAR_T, type_text
from .creates import fits

if TYPE_CHECKING:
    from ..context import FunctionContext

L = S.LANGUAGE


@dsl_op("array.create", VALUE, params=("size", "dtype"))
def array_create(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> tuple[Any, Any]:
    if isinstance(a["size"], ast.Name) and (binding := cx.lookup(a["size"].id)) is not None:
        raise cx.error(f"an array size must be a constant, but '{a['size'].id}' is a {type_text(binding.type)} "
                       "variable", a["size"])
    size = cx.types.const_int(a["size"])
    if not 0 < size <= MAX_ARRAY_SIZE:
        raise cx.error(f"an array size must be a constant from 1 to {MAX_ARRAY_SIZE}, got {size}", a["size"])
    dtype = cx.types.dtype(a["dtype"])
    if dtype.c_type is None:
        raise cx.error(f"an array of {dtype.name} has no host C++ type", a["dtype"])
    return L.CreateArray.make(size, dtype), L.ArrayType.make(size, dtype)


@dsl_op("const", EXPRESSION, params=("value", "dtype"))
def const(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> tuple[Any, Any]:
    """``pl.const(value, dtype)``: a literal of that dtype (an int, a float or a bool constant)."""
    value = constant_value(cx.program, a["value"])
    dtype = cx.types.dtype(a["dtype"])
    if dtype.c_type is None or dtype is DType.TASK_ID:
        raise cx.error(f"pl.const of dtype {dtype.name}: it has no host C++ type", a["dtype"])
    if isinstance(value, bool) or dtype is DType.BOOL:
        if dtype is not DType.BOOL or not isinstance(value, bool):
            raise cx.error(f"pl.const({value!r}, {dtype.name}): a bool constant needs True or False and pl.BOOL", call)
        return L.Bool.make(value), SCALAR_T[dtype]
    if not isinstance(value, (int, float)):
        raise cx.error(f"pl.const needs an int or float constant, got {value!r}", a["value"])
    if dtype.is_float:
        if not math.isfinite(value):
            raise cx.error(f"pl.const needs a finite value, got {value}", a["value"])
        return L.Float.make(float(value), dtype), SCALAR_T[dtype]
    if isinstance(value, float):
        if not value.is_integer():
            raise cx.error(f"pl.const({value}, {dtype.name}): {value} is not an integer", a["value"])
        value = int(value)
    if not fits(value, dtype):
        raise cx.error(f"pl.const: {value} does not fit in {dtype.name}", a["value"])
    return L.Int.make(value, dtype), SCALAR_T[dtype]
