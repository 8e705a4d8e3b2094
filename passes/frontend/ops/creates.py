"""Tensors the orchestration function creates: ``pl.create_tensor`` (alias ``pl.tensor.create``),
with its ``init_value``.
"""

from __future__ import annotations

import ast
import math
from typing import TYPE_CHECKING, Any

from nanopass.languages import surface as S
from nanopass.languages.terms import DType

from ..consteval import constant_value
from ..registry import VALUE, dsl_op
from .operands import shape_list

if TYPE_CHECKING:
    from ..context import FunctionContext

L = S.LANGUAGE


@dsl_op("create_tensor", VALUE, aliases=("tensor.create",),
        params=("shape", "dtype", "layout", "manual_dep", "init_value"), required=2)
def create_tensor(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> tuple[Any, Any]:
    what = "create_tensor"
    shape = shape_list(cx, a["shape"], what)
    dtype = cx.types.dtype(a["dtype"])
    if dtype not in _TENSOR_DTYPES:
        raise cx.error(f"the runtime has no tensor dtype for {dtype.name}", a["dtype"])
    manual_dep = False
    if "manual_dep" in a:
        manual_dep = cx.program._bool_literal(a["manual_dep"], "manual_dep")
    init = None
    if "init_value" in a and not (isinstance(a["init_value"], ast.Constant) and a["init_value"].value is None):
        init = init_value(cx, a["init_value"], dtype)
    tensor_type = cx.types.constant_tensor_type(shape, dtype) or L.TensorType.make(shape, dtype)
    # (trusted: the Exprs shape_list read, a dtype type_reader.dtype read, a bool, the Int or Float
    # init_value made or None)
    return L.CreateTensor.make_trusted(shape, dtype, manual_dep, init), tensor_type


_TENSOR_DTYPES = frozenset(d for d in DType if d.runtime is not None)  # (dtype.runtime is a property: a call)


def init_value(cx: FunctionContext, node: ast.expr, dtype: DType) -> Any:
    value = constant_value(cx.program, node)
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, float) and not math.isfinite(value):
        raise cx.error(f"init_value must be finite, got {value}", node)
    if value == 0:
        return L.Int.make(0, DType.INDEX)
    if dtype in (DType.FP16, DType.BF16):
        raise cx.error(
            f"a non-zero init_value is not supported for {dtype.name} (a sub-32-bit float); "
            "only init_value=0 is",
            node,
            hint="use a 32-bit dtype or init_value=0",
        )
    if dtype.is_float:
        return L.Float.make(float(value), dtype)
    if isinstance(value, float) and not value.is_integer():
        raise cx.error(
            f"init_value {value} is not an integer but the tensor dtype is {dtype.name}", node
        )
    ivalue = int(value)
    if abs(ivalue) > 2**53:
        raise cx.error(f"init_value {ivalue} exceeds the exactly-representable integer range (+/-2^53)", node)
    if not fits(ivalue, dtype):
        raise cx.error(f"init_value {ivalue} does not fit in {dtype.name}", node)
    return L.Int.make(ivalue, dtype)


def fits(value: int, dtype: DType) -> bool:
    bits = dtype.bits
    if dtype is DType.BOOL:
        return value in (0, 1)
    if dtype.is_signed:
        return -(2 ** (bits - 1)) <= value < 2 ** (bits - 1)
    return 0 <= value < 2**bits
