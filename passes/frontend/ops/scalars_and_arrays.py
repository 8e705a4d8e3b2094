"""Scalars and host arrays: ``pl.array.create``.

(Scalar operations to come, such as ``pl.const(value, dtype)``, belong here: an ``EXPRESSION``
form is read wherever a scalar expression is, and also as the value of an assignment.)
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.languages import surface as S

from ..limits import MAX_ARRAY_SIZE
from ..registry import VALUE, dsl_op
from ..type_reader import type_text

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
    return L.CreateArray(size, dtype), L.ArrayType(size, dtype)
