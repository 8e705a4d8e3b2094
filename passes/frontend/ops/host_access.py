"""Elements read and written by the orchestration code on the host: ``pl.tensor.read``,
``pl.tensor.write``, subscripts ``t[i, j]`` and ``arr[i]``, and ``arr[i] = v``.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.languages import surface as S
from nanopass.languages.terms import DType

from ..registry import STATEMENT, VALUE, dsl_op
from ..type_reader import SCALAR_T, type_text
from .operands import index_list, tensor_operand

if TYPE_CHECKING:
    from ..context import FunctionContext

L = S.LANGUAGE


@dsl_op("tensor.read", VALUE, params=("tensor", "indices"))
def read(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> tuple[Any, Any]:
    tensor, ty = tensor_operand(cx, a["tensor"], "tensor.read")
    index = index_list(cx, a["indices"], "tensor.read")
    if len(index) != len(ty.shape):
        raise cx.error(
            f"pl.tensor.read of a rank-{len(ty.shape)} tensor needs {len(ty.shape)} indices, got {len(index)}",
            a["indices"],
        )
    if ty.dtype.c_type is None:
        raise cx.error(f"elements of a {ty.dtype.name} tensor cannot be read on the host", call)
    return L.ReadTensor(tensor, index), SCALAR_T[ty.dtype]


@dsl_op("tensor.write", STATEMENT, params=("tensor", "indices", "value"))
def write(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> Any:
    tensor, ty = tensor_operand(cx, a["tensor"], "tensor.write")
    index = index_list(cx, a["indices"], "tensor.write")
    if len(index) != len(ty.shape):
        raise cx.error(
            f"pl.tensor.write of a rank-{len(ty.shape)} tensor needs {len(ty.shape)} indices, got {len(index)}",
            a["indices"],
        )
    value, vty = cx.expr(a["value"])
    if vty._production != "ScalarType" or vty.dtype is DType.TASK_ID:
        raise cx.error("pl.tensor.write stores a scalar", a["value"])
    if ty.dtype.c_type is None:
        raise cx.error(f"elements of a {ty.dtype.name} tensor cannot be written on the host", call)
    if value._production in ("Int", "Float"):
        if ty.dtype.is_float:
            value = L.Float(float(value.value), ty.dtype)
        elif value._production == "Float":
            raise cx.error(f"cannot write a float into a {ty.dtype.name} tensor", a["value"])
        else:
            value = L.Int(value.value, ty.dtype)
    elif vty.dtype.is_float != ty.dtype.is_float:
        raise cx.error(f"cannot write a {vty.dtype.name} value into a {ty.dtype.name} tensor", a["value"])
    return L.WriteTensor(tensor, index, value, span=cx.span(call))


def subscript(cx: FunctionContext, node: ast.Subscript) -> tuple[Any, Any]:
    base, ty = cx.expr(node.value)
    if ty._production == "ArrayType":
        index, ity = cx.expr(node.slice)
        if ity._production != "ScalarType" or not ity.dtype.is_int:
            raise cx.error("an array index must be an integer", node.slice)
        return L.GetItem(base, index), SCALAR_T[ty.dtype]
    if ty._production == "TensorType":
        elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if any(isinstance(e, ast.Slice) for e in elts):
            raise cx.error("slice subscripts of tensors are not supported; use pl.tensor.slice", node)
        fake = ast.List(elts=elts, ctx=ast.Load())
        ast.copy_location(fake, node.slice)
        index = index_list(cx, fake, "tensor.read")
        if len(index) != len(ty.shape):
            raise cx.error(
                f"reading an element of a rank-{len(ty.shape)} tensor needs {len(ty.shape)} indices", node
            )
        if base._production != "Var":
            raise cx.error("only a tensor variable can be subscripted", node.value)
        return L.ReadTensor(base, index), SCALAR_T[ty.dtype]
    raise cx.error(f"a {type_text(ty)} cannot be subscripted", node)


def array_write(cx: FunctionContext, target: ast.Subscript, value: ast.expr, stmt: ast.stmt) -> Any:
    if not isinstance(target.value, ast.Name):
        raise cx.error("only an array variable can be assigned by index", target.value)
    arr, aty = cx.expr(target.value)
    if aty._production == "TensorType":
        raise cx.error(
            "element writes 't[i, j] = v' are not supported for tensors; use pl.tensor.write(t, [i, j], v)",
            target,
        )
    if aty._production != "ArrayType":
        raise cx.error(f"a {type_text(aty)} cannot be assigned by index", target)
    if isinstance(target.slice, ast.Tuple):
        raise cx.error("an array subscript-write takes a single index", target.slice)
    index, ity = cx.expr(target.slice)
    if ity._production != "ScalarType" or not ity.dtype.is_int:
        raise cx.error("an array index must be an integer", target.slice)
    val, vty = cx.expr(value)
    if vty._production != "ScalarType" or (vty.dtype is DType.TASK_ID) != (aty.dtype is DType.TASK_ID):
        raise cx.error(f"cannot store a {type_text(vty)} in a {type_text(aty)}", value)
    if val._production == "Int":
        val = L.Int(val.value, aty.dtype)
    binder = cx.bind(target.value.id, aty, target.value)
    return L.Let(binder, L.SetItem(arr, index, val), span=cx.span(stmt))
