"""The operands DSL operations share: a tensor variable, a list of indices, a shape."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.errors import quoted
from nanopass.languages import surface as S

from ..exprs import index_int
from ..exprs import name as read_name
from ..limits import MAX_DIM, MAX_TENSOR_DIMS
from ..type_reader import INT_DTYPES, check_extent, type_text

if TYPE_CHECKING:
    from ..context import FunctionContext

_INT, _SCALAR = S.LANGUAGE.Int, S.LANGUAGE.ScalarType
_TENSOR, _VAR = S.LANGUAGE.TensorType, S.LANGUAGE.Var


def tensor_operand(cx: FunctionContext, node: ast.expr, what: str) -> tuple[Any, Any]:
    if type(node) is ast.Name and not cx.expr_level:  # (what tensor_value reads of a name: exprs.name)
        expr, ty = read_name(cx, node)
    else:
        from .nested_calls import tensor_value

        expr, ty = tensor_value(cx, node)
    if type(ty) is not _TENSOR or type(expr) is not _VAR:
        raise cx.error(f"pl.{what} needs a tensor variable, got {quoted(ast.unparse(node))}", node)
    return expr, ty


def index_list(cx: FunctionContext, node: ast.expr, what: str, shape: bool = False) -> list[Any]:
    if not isinstance(node, (ast.List, ast.Tuple)):
        example = "a shape must be a list, like [16, 16]" if shape else "indices must be a list, like [i, j]"
        raise cx.error(f"pl.{what}: {example}", node)
    out = []
    for elt in node.elts:
        if type(elt) is ast.Constant:
            value = elt.value
            if type(value) is int and 0 <= value < 2**63:
                out.append(index_int(value))  # (what cx.expr reads of a constant index, without its checks)
                continue
        expr, ty = cx.expr(elt)
        if type(ty) is not _SCALAR or ty.dtype not in INT_DTYPES:
            raise cx.error(f"{'a dimension' if shape else 'an index'} must be an integer, got {type_text(ty)}", elt)
        out.append(expr)
    return out


def shape_list(cx: FunctionContext, node: ast.expr, what: str) -> list[Any]:
    kind = type(node)
    if kind is ast.List or kind is ast.Tuple:  # the usual shape, constant extents: without index_list's calls
        dims = []
        for elt in node.elts:
            if type(elt) is not ast.Constant:
                break
            value = elt.value
            if type(value) is not int or not 0 < value < MAX_DIM:
                break
            dims.append(index_int(value))
        else:
            if 1 <= len(dims) <= MAX_TENSOR_DIMS:
                return dims
        # (any other: read again below, where each error is found)
    if isinstance(node, ast.Name) and cx.lookup(node.id) is None and isinstance(
        cx.src.closure_get(node.id, node), (list, tuple)
    ):
        dims = [cx.types.dim_value(v, node) for v in cx.src.closure[node.id]]
    else:
        dims = index_list(cx, node, what, shape=True)
        for dim, elt in zip(dims, node.elts):
            if type(dim) is _INT and not 0 < dim.value < MAX_DIM:  # (check_extent says why)
                check_extent(cx, dim.value, elt)
    if not 1 <= len(dims) <= MAX_TENSOR_DIMS:
        raise cx.error(f"a tensor has 1 to {MAX_TENSOR_DIMS} dimensions, got {len(dims)}", node)
    return dims
