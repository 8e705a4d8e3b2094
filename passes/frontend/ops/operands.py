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


# Constant indices a program provably gets wrong (reference-surface.md section 2: a window provably
# outside its source is a user error). The runtime's indices, offsets and extents are uint32_t;
# only a constant index is checked, against a constant extent where the axis has one (a symbolic
# index, or one against a dynamic extent that fits uint32_t, is the runtime's business), and only
# where the statement can run: not in a branch a constant condition skips (``cx.unreachable``: a
# pl.unroll copy's guard, ``if k + 1 < n: ... t[k + 1]``).

_COMPARE = {"eq": int.__eq__, "ne": int.__ne__, "lt": int.__lt__, "le": int.__le__, "gt": int.__gt__,
            "ge": int.__ge__}


def constant_truth(cond: Any) -> bool | None:
    """The value of an if's condition when constants decide it (a bool, a comparison of two
    integer constants, ``and``/``or``/``not`` of those, an operand of unknown value where the
    other decides); None otherwise."""
    kind = cond._production
    if kind == "Bool":
        return cond.value
    if kind == "Cmp" and type(cond.a) is _INT and type(cond.b) is _INT:
        return _COMPARE[cond.op.name](cond.a.value, cond.b.value)
    if kind == "Un" and cond.op.name == "not_":
        value = constant_truth(cond.a)
        return None if value is None else not value
    if kind == "Bin" and cond.op.name in ("and_", "or_"):
        decides = cond.op.name == "or_"  # the operand value that decides the whole (False for and)
        values = (constant_truth(cond.a), constant_truth(cond.b))
        if decides in values:
            return decides
        return None if None in values else not decides
    return None


def check_element_index(cx: FunctionContext, index: list[Any], nodes: list[ast.expr], shape: tuple) -> None:
    """The constant indices of an element ``index`` (one per axis of a tensor of ``shape``, read from
    ``nodes``) lie in their axes: 0 to the extent less one, below 2**32 where the extent is dynamic."""
    if cx.unreachable:
        return
    for axis, (value, extent, node) in enumerate(zip(index, shape, nodes)):
        if type(value) is not _INT:
            continue
        if type(extent) is _INT:
            if not 0 <= value.value < extent.value:
                raise cx.error(f"index {value.value} of axis {axis} is outside the dimension of extent "
                               f"{extent.value}", node, hint=f"the indices of axis {axis} run from 0 to {extent.value - 1}")
        else:
            _check_uint32(cx, "index", value.value, axis, node)


def check_array_index(cx: FunctionContext, index: Any, ty: Any, node: ast.expr) -> None:
    """A constant index of an array (of type ``ty``, whose size is constant) lies in it."""
    if type(index) is _INT and not cx.unreachable and not 0 <= index.value < ty.size:
        raise cx.error(f"index {index.value} is outside an array of {ty.size}", node,
                       hint=f"the indices of the array run from 0 to {ty.size - 1}")


def check_offsets(cx: FunctionContext, offset: list[Any], nodes: list[ast.expr]) -> None:
    """The constant offsets of a window (read from ``nodes``): none below 0 (the window would start
    before the tensor, whatever ``clamp=``, which lets it run past the end only), none at 2**32 or more."""
    for axis, (off, node) in enumerate(zip(offset, nodes)):
        if type(off) is _INT and not cx.unreachable:
            _check_uint32(cx, "offset", off.value, axis, node)


def check_window_ends(cx: FunctionContext, offset: list[Any], sizes: tuple, extents: tuple, nodes: list[ast.expr],
                      message: str, hint: str | None = None) -> None:
    """The windows ``[offset, offset + size)`` of the axes whose offset, size and extent are all
    constant end within the extent (each read from its ``nodes``); ``message`` the error's, written
    over ``{axis}``, ``{lo}``, ``{hi}`` and ``{extent}``."""
    if cx.unreachable:
        return
    for axis, (off, size, extent, node) in enumerate(zip(offset, sizes, extents, nodes)):
        if all(x._production == "Int" for x in (off, size, extent)) and off.value + size.value > extent.value:
            raise cx.error(message.format(axis=axis, lo=off.value, hi=off.value + size.value, extent=extent.value),
                           node, hint=hint)


def _check_uint32(cx: FunctionContext, kind: str, value: int, axis: int, node: ast.expr) -> None:
    if value < 0:
        before = "the window would start" if kind == "offset" else "it is"
        raise cx.error(f"{kind} {value} of axis {axis} is below 0: {before} before the tensor's first element", node)
    if value >= MAX_DIM:
        plural = "offsets" if kind == "offset" else "indices"
        raise cx.error(f"{kind} {value} of axis {axis} is not below 2**32 (the runtime's {plural} are uint32_t)", node)
