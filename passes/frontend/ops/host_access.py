"""Elements read and written by the orchestration code on the host: ``pl.tensor.read``,
``pl.tensor.write``, subscripts ``t[i, j]`` and ``arr[i]``, and ``arr[i] = v`` (or
``arr = pl.array.update_element(arr, i, v)``).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.languages import surface as S
from nanopass.languages.terms import DType

from ..registry import BINDING, OPS, STATEMENT, VALUE, dsl_op
from ..type_reader import SCALAR_T, type_text
from .. import submit_tuples
from .operands import check_array_index, check_element_index, index_list, tensor_operand

if TYPE_CHECKING:
    from ..context import FunctionContext

L = S.LANGUAGE


@dsl_op("tensor.read", VALUE, params=("tensor", "indices"))
def read(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> tuple[Any, Any]:
    tensor, ty, index = _element(cx, a, "tensor.read")
    if ty.dtype.c_type is None:
        raise cx.error(f"elements of a {ty.dtype.name} tensor cannot be read on the host", call)
    check_element_index(cx, index, index_nodes(a["indices"]), ty.shape)
    return L.ReadTensor.make(tensor, index), SCALAR_T[ty.dtype]


@dsl_op("tensor.write", STATEMENT, params=("tensor", "indices", "value"))
def write(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> Any:
    tensor, ty, index = _element(cx, a, "tensor.write")
    check_element_index(cx, index, index_nodes(a["indices"]), ty.shape)
    value, vty = cx.expr(a["value"])
    if vty._production != "ScalarType" or vty.dtype is DType.TASK_ID:
        raise cx.error("pl.tensor.write stores a scalar", a["value"])
    if ty.dtype.c_type is None:
        raise cx.error(f"elements of a {ty.dtype.name} tensor cannot be written on the host", call)
    if value._production in ("Int", "Float"):
        if ty.dtype.is_float:
            value = L.Float.make(float(value.value), ty.dtype)
        elif value._production == "Float":
            raise cx.error(f"cannot write a float into a {ty.dtype.name} tensor", a["value"])
        else:
            value = L.Int.make(value.value, ty.dtype)
    elif vty.dtype.is_float != ty.dtype.is_float:
        raise cx.error(f"cannot write a {vty.dtype.name} value into a {ty.dtype.name} tensor", a["value"])
    return L.WriteTensor.make(tensor, index, value, span=cx.span(call))


def _element(cx: FunctionContext, a: dict[str, ast.expr], what: str) -> tuple[Any, Any, list[Any]]:
    """The tensor, its type and the element index (one per axis) of ``pl.<what>(tensor, indices)``."""
    tensor, ty = tensor_operand(cx, a["tensor"], what)
    index = element_index(cx, a["indices"], what)
    if len(index) != len(ty.shape):
        raise cx.error(f"pl.{what} of a rank-{len(ty.shape)} tensor needs {len(ty.shape)} indices, got {len(index)}",
                       a["indices"])
    return tensor, ty, index


def index_nodes(node: ast.expr) -> list[ast.expr]:
    """The nodes of ``element_index``'s indices, one per index."""
    return node.elts if isinstance(node, (ast.List, ast.Tuple)) else [node]


def element_index(cx: FunctionContext, node: ast.expr, what: str) -> list[Any]:
    """The indices of ``pl.tensor.read`` / ``pl.tensor.write``: a list, or one integer (``v, 1`` is
    ``v, [1]``, as the existing DSL takes it for a 1-D tensor: reference-surface.md S3)."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return index_list(cx, node, what)
    expr, ty = cx.expr(node)
    if ty._production != "ScalarType" or not ty.dtype.is_int:
        raise cx.error(f"pl.{what}: indices must be a list, like [i, j], or one integer index of a 1-D tensor", node)
    return [expr]


def subscript(cx: FunctionContext, node: ast.Subscript) -> tuple[Any, Any]:
    if submit_tuples.is_tuple_name(cx, node.value):  # r[k] of r = pl.submit(...)
        return submit_tuples.element(cx, node)
    base, ty = cx.expr(node.value)
    if ty._production == "ArrayType":
        index, ity = cx.expr(node.slice)
        if ity._production != "ScalarType" or not ity.dtype.is_int:
            raise cx.error("an array index must be an integer", node.slice)
        check_array_index(cx, index, ty, node.slice)
        return L.GetItem.make(base, index), SCALAR_T[ty.dtype]
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
        check_element_index(cx, index, elts, ty.shape)
        return L.ReadTensor.make(base, index), SCALAR_T[ty.dtype]
    raise cx.error(f"a {type_text(ty)} cannot be subscripted", node)


def array_write(cx: FunctionContext, target: ast.Subscript, value: ast.expr, stmt: ast.stmt) -> Any:
    if not isinstance(target.value, ast.Name):
        raise cx.error("only an array variable can be assigned by index", target.value)
    if isinstance(target.slice, ast.Tuple):
        raise cx.error("an array subscript-write takes a single index", target.slice)
    return _array_store(cx, target.value, target.value, target.slice, value, target, stmt)


@dsl_op("array.update_element", BINDING, params=("array", "index", "value"), misplaced={
    STATEMENT: "assign the array it updates: arr = pl.array.update_element(arr, i, v)",
})
def update_element(cx: FunctionContext, call: ast.Call, target: ast.Name, stmt: ast.stmt) -> list[Any]:
    """``arr = pl.array.update_element(arr, i, v)``: ``arr[i] = v`` as the existing compiler spells
    it. The array is updated in place, so the target is the array's own name; in the printed IR's
    SSA form it is the array's next version (``arr_v2 = pl.array.update_element(arr_v1, i, v)``)."""
    op = OPS["array.update_element"]
    a = op.bind(cx, call, op.forms[BINDING])
    array = a["array"]
    if not isinstance(array, ast.Name):
        raise cx.error("pl.array.update_element updates an array variable", array)
    if array.id != target.id and not cx.program.src.printed:
        raise cx.error(f"pl.array.update_element updates '{array.id}' in place: assign it to '{array.id}' "
                       f"(or write {array.id}[i] = v)", target)
    return [_array_store(cx, array, target, a["index"], a["value"], call, stmt)]


def _array_store(cx: FunctionContext, array: ast.Name, target: ast.Name, index_node: ast.expr, value: ast.expr,
                 where: ast.expr, stmt: ast.stmt) -> Any:
    """``target = array`` with element ``index_node`` set to ``value`` (``Let target (SetItem ...)``)."""
    arr, aty = cx.expr(array)
    if aty._production == "TensorType":
        raise cx.error(
            "element writes 't[i, j] = v' are not supported for tensors; use pl.tensor.write(t, [i, j], v)",
            where,
        )
    if aty._production != "ArrayType":
        raise cx.error(f"a {type_text(aty)} cannot be assigned by index", where)
    index, ity = cx.expr(index_node)
    if ity._production != "ScalarType" or not ity.dtype.is_int:
        raise cx.error("an array index must be an integer", index_node)
    check_array_index(cx, index, aty, index_node)
    val, vty = cx.expr(value)
    if vty._production != "ScalarType" or (vty.dtype is DType.TASK_ID) != (aty.dtype is DType.TASK_ID):
        raise cx.error(f"cannot store a {type_text(vty)} in a {type_text(aty)}", value)
    if val._production == "Int":
        val = L.Int.make(val.value, aty.dtype)
    source = cx.visible.get(array.id)
    binder = cx.bind(target.id, aty, target)
    written = cx.visible.get(target.id)
    if written is not None:
        updated = None
        if written is not source:  # (the printed IR's next version: a new name of the array's one storage)
            cx.arrays.forget(written)
            if target.id not in cx.names_read():
                # (D18: a version nothing reads is a dead value; remove_dead_values drops its update,
                # so the C++ writes no slot and every other name keeps the slots it had)
                return L.Let.make(binder, L.SetItem.make(arr, index, val), span=cx.span(stmt))
            cx.arrays.share(source, array.id, written, target.id, stmt)
            updated = array.id
        cx.arrays.wrote(written, target.id, stmt.lineno, updated)  # (D18: every other name of the array sees it)
    return L.Let.make(binder, L.SetItem.make(arr, index, val), span=cx.span(stmt))
