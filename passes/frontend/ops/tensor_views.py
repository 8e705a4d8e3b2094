"""Views of a tensor: ``pl.tensor.slice``, ``pl.tensor.reshape``, ``pl.tensor.transpose``, ``pl.tensor.dim``,
``pl.assemble``. None is a task: each is a new handle on its operand's buffer (or its extent).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.languages import surface as S
from nanopass.languages.terms import DType

from ..registry import VALUE, dsl_op
from ..type_reader import SCALAR_T
from .operands import index_list, shape_list, tensor_operand

if TYPE_CHECKING:
    from ..context import FunctionContext

L = S.LANGUAGE


@dsl_op("tensor.slice", VALUE, params=("tensor", "shape", "offset"))
def slice_(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> tuple[Any, Any]:
    tensor, ty = tensor_operand(cx, a["tensor"], "tensor.slice")
    shape = shape_list(cx, a["shape"], "tensor.slice")
    offset = index_list(cx, a["offset"], "tensor.slice")
    if len(shape) != len(ty.shape) or len(offset) != len(ty.shape):
        raise cx.error(
            f"pl.tensor.slice of a rank-{len(ty.shape)} tensor needs a shape and an offset of rank {len(ty.shape)}",
            call,
        )
    shape_nodes = a["shape"].elts if isinstance(a["shape"], (ast.List, ast.Tuple)) else [call] * len(shape)
    for dim, off, full, node in zip(shape, offset, ty.shape, shape_nodes):
        if all(x._production == "Int" for x in (dim, off, full)) and off.value + dim.value > full.value:
            raise cx.error(
                f"the slice [{off.value}, {off.value + dim.value}) is outside the dimension of extent {full.value}",
                node,
            )
    return L.SliceTensor.make(tensor, shape, offset, False), L.TensorType.make(shape, ty.dtype)


@dsl_op("tensor.reshape", VALUE, params=("tensor", "shape"))
def reshape(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> tuple[Any, Any]:
    tensor, ty = tensor_operand(cx, a["tensor"], "tensor.reshape")
    shape = shape_list(cx, a["shape"], "tensor.reshape")
    old, new = _static_numel(ty.shape), _static_numel(shape)
    if old is not None and new is not None and old != new:
        raise cx.error(f"pl.tensor.reshape cannot change the element count ({old} to {new})", a["shape"])
    return L.ReshapeTensor(tensor, shape, False), L.TensorType(shape, ty.dtype)


@dsl_op("tensor.transpose", VALUE, params=("tensor", "axis1", "axis2"))
def transpose(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> tuple[Any, Any]:
    tensor, ty = tensor_operand(cx, a["tensor"], "tensor.transpose")
    rank = len(ty.shape)
    axes = []
    for key in ("axis1", "axis2"):
        axis = cx.types.const_int(a[key])
        if axis < 0:
            axis += rank
        if not 0 <= axis < rank:
            raise cx.error(f"pl.tensor.transpose {key} is out of range for a rank-{rank} tensor", a[key])
        axes.append(axis)
    if axes[0] == axes[1]:
        raise cx.error("pl.tensor.transpose needs two different axes", call)
    shape = list(ty.shape)
    shape[axes[0]], shape[axes[1]] = shape[axes[1]], shape[axes[0]]
    return L.TransposeTensor(tensor, axes[0], axes[1], False), L.TensorType(shape, ty.dtype)


@dsl_op("tensor.dim", VALUE, params=("tensor", "axis"))
def dim(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> tuple[Any, Any]:
    tensor, ty = tensor_operand(cx, a["tensor"], "tensor.dim")
    axis = cx.types.const_int(a["axis"])
    rank = len(ty.shape)
    if axis < 0:
        axis += rank
    if not 0 <= axis < rank:
        raise cx.error(f"pl.tensor.dim axis is out of range for a rank-{rank} tensor", a["axis"])
    dim = ty.shape[axis]
    int64 = SCALAR_T[DType.INT64]
    if dim._production == "Int":
        return L.Int(dim.value, DType.INT64), int64
    if dim._production == "Var" and cx.lookup(dim.name) is not None and cx.lookup(dim.name).kind == "dyn":
        return L.Var(dim.name), int64
    return L.DimTensor(tensor, axis), int64


@dsl_op("assemble", VALUE, aliases=("tensor.assemble",), params=("target", "source", "offset"))
def assemble(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> tuple[Any, Any]:
    target, tty = tensor_operand(cx, a["target"], "assemble")
    source, sty = tensor_operand(cx, a["source"], "assemble")
    offset = index_list(cx, a["offset"], "assemble")
    if len(offset) != len(tty.shape) or len(sty.shape) != len(tty.shape):
        raise cx.error("pl.assemble needs a source and an offset of the target's rank", call)
    if sty.dtype != tty.dtype:
        raise cx.error("pl.assemble needs a source of the target's dtype", a["source"])
    return L.AssembleTensor(target, source, offset), tty


def _static_numel(shape: tuple) -> int | None:
    total = 1
    for d in shape:
        if d._production != "Int":
            return None
        total *= d.value
    return total
