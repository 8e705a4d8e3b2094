"""Views of a tensor: ``pl.tensor.slice`` (short form ``pl.slice``), ``pl.tensor.reshape``
(``pl.reshape``), ``pl.tensor.transpose`` (``pl.transpose``), ``pl.tensor.view``, ``pl.tensor.dim``,
``pl.assemble``. None is a task: each is a new handle on its operand's buffer (or its extent).

The short forms of the existing DSL also apply to tiles; in an orchestration function only the
tensor meaning exists, so they are aliases. ``valid_shape=`` and ``pad_value=`` of a slice are
metadata for kernels (checked, nothing printed); ``clamp=True`` lets a window run past the
source's end: the runtime view's extents are cut to what is left of the source after the offset
(printed as a run-time ``std::min`` in both ABIs; ``--abi l2`` prints every extent that way, as
the reference does). The result's type keeps the written extents, an upper bound of the view's.
A window provably outside its tensor is a located error (``operands.check_offsets``: an offset
below 0 or not below 2**32, clamped or not; ``operands.check_window_ends``, without
``clamp=True``: a slice's or an assemble's window past a constant extent).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.errors import quoted
from nanopass.languages import surface as S
from nanopass.languages.terms import DType

from ..consteval import constant_value
from ..names import attr_path, dsl_call
from ..registry import VALUE, dsl_op
from ..type_reader import SCALAR_T
from .operands import check_offsets, check_window_ends, index_list, shape_list, tensor_operand

if TYPE_CHECKING:
    from ..context import FunctionContext

L = S.LANGUAGE


@dsl_op("tensor.slice", VALUE, aliases=("slice",),
        params=("tensor", "shape", "offset", "valid_shape", "drop_dims", "clamp", "pad_value", "placed"), required=3)
def slice_(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> tuple[Any, Any]:
    what = "slice" if dsl_call(call) == "slice" else "tensor.slice"
    if what == "slice" and "pad_value" in a:
        raise cx.error("pl.slice has no keyword argument 'pad_value' (pl.tensor.slice has)", a["pad_value"])
    tensor, ty = tensor_operand(cx, a["tensor"], what)
    shape = shape_list(cx, a["shape"], what)
    offset = index_list(cx, a["offset"], what)
    rank = len(ty.shape)
    for arg, given, node in (("shape", shape, a["shape"]), ("offset", offset, a["offset"])):
        if len(given) != rank:  # located at that argument (the other may be right)
            raise cx.error(f"pl.{what} of a rank-{rank} tensor needs a shape and an offset of rank {rank}: this "
                           f"{arg} has {len(given)} entr{'y' if len(given) == 1 else 'ies'}", node)
    if _given(a, "valid_shape") and len(index_list(cx, a["valid_shape"], what, shape=True)) != rank:
        raise cx.error(f"pl.{what}'s valid_shape must have the tensor's rank, {rank}", a["valid_shape"])
    if _given(a, "drop_dims"):
        raise cx.error(
            f"pl.{what}'s drop_dims is not supported in an orchestration function: the runtime's view keeps "
            "the source's rank, so a result typed without the dropped axes is not the tensor a task receives",
            a["drop_dims"],
            hint="slice with the full rank; a kernel parameter of that rank takes it",
        )
    clamp = _given(a, "clamp") and cx.program._bool_literal(a["clamp"], "clamp")
    if "placed" in a and not cx.src.printed:
        raise cx.error(
            f"pl.{what} has no keyword argument 'placed' in a program: the printed IR writes it "
            "(fuse_create_assemble_to_slice's mark of an assemble's source)", a["placed"],
            hint="write pl.assemble(target, source, offset); the compiler places the source",
        )
    placed = "placed" in a and cx.program._bool_literal(a["placed"], "placed")
    if _given(a, "pad_value"):
        constant_value(cx.program, a["pad_value"])  # a constant, for the kernel; nothing printed
    shape_nodes = a["shape"].elts if isinstance(a["shape"], (ast.List, ast.Tuple)) else [call] * len(shape)
    if not clamp:
        check_window_ends(cx, offset, shape, ty.shape, shape_nodes,
                          "the slice [{lo}, {hi}) is outside the dimension of extent {extent}",
                          hint="clamp=True cuts the window at the source's end")
    check_offsets(cx, offset, a["offset"].elts)
    return L.SliceTensor.make(tensor, shape, offset, False, clamp, placed), L.TensorType.make(shape, ty.dtype)


@dsl_op("tensor.reshape", VALUE, aliases=("reshape",), params=("tensor", "shape"))
def reshape(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> tuple[Any, Any]:
    return _reshape(cx, a["tensor"], a["shape"], dsl_call(call))


def _reshape(cx: FunctionContext, tensor_node: ast.expr, shape_node: ast.expr, what: str) -> tuple[Any, Any]:
    tensor, ty = tensor_operand(cx, tensor_node, what)
    shape = shape_list(cx, shape_node, what)
    old, new = _static_numel(ty.shape), _static_numel(shape)
    if old is not None and new is not None and old != new:
        raise cx.error(f"pl.{what} cannot change the element count ({old} to {new})", shape_node)
    return L.ReshapeTensor.make(tensor, shape, False), L.TensorType.make(shape, ty.dtype)


@dsl_op("tensor.view", VALUE, params=("tensor", "shape", "valid_shape", "layout"), required=1)
def view(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> tuple[Any, Any]:
    """``pl.tensor.view(t, shape)``: the same memory under another shape, printed as a reshape; a
    layout other than ND has no orchestration meaning."""
    layout = a.get("layout")
    if layout is not None and not _is_none(layout) and (attr_path(layout) or [""])[-1] != "ND":
        raise cx.error(
            f"pl.tensor.view with layout {quoted(ast.unparse(layout))}: an orchestration function lowers only a "
            "shape change of an ND tensor",
            layout,
        )
    if not _given(a, "shape"):
        raise cx.error("pl.tensor.view needs shape=: an orchestration function lowers only a shape change", call)
    if _given(a, "valid_shape"):
        index_list(cx, a["valid_shape"], "tensor.view", shape=True)
    return _reshape(cx, a["tensor"], a["shape"], "tensor.view")


@dsl_op("tensor.transpose", VALUE, aliases=("transpose",), params=("tensor", "axis1", "axis2"))
def transpose(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> tuple[Any, Any]:
    tensor, ty = tensor_operand(cx, a["tensor"], dsl_call(call))
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
    return L.TransposeTensor.make(tensor, axes[0], axes[1], False), L.TensorType.make(shape, ty.dtype)


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
        return L.Int.make(dim.value, DType.INT64), int64
    if dim._production == "Var" and cx.lookup(dim.name) is not None and cx.lookup(dim.name).kind == "dyn":
        return L.Var.make(dim.name), int64
    return L.DimTensor.make(tensor, axis), int64


@dsl_op("assemble", VALUE, aliases=("tensor.assemble",), params=("target", "source", "offset"))
def assemble(cx: FunctionContext, call: ast.Call, a: dict[str, ast.expr]) -> tuple[Any, Any]:
    target, tty = tensor_operand(cx, a["target"], "assemble")
    source, sty = tensor_operand(cx, a["source"], "assemble")
    offset = index_list(cx, a["offset"], "assemble")
    if len(offset) != len(tty.shape) or len(sty.shape) != len(tty.shape):
        raise cx.error("pl.assemble needs a source and an offset of the target's rank", call)
    if sty.dtype != tty.dtype:
        raise cx.error("pl.assemble needs a source of the target's dtype", a["source"])
    check_offsets(cx, offset, a["offset"].elts)
    check_window_ends(cx, offset, sty.shape, tty.shape, a["offset"].elts,
                      "the source's window [{lo}, {hi}) of axis {axis} is outside the target's dimension of "
                      "extent {extent}")
    return L.AssembleTensor.make_trusted(target, source, offset), tty  # (trusted: the Vars and Exprs read above)


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _given(a: dict[str, ast.expr], key: str) -> bool:
    """Whether the call passes ``key`` as something other than None (the reference's default)."""
    return key in a and not _is_none(a[key])


def _static_numel(shape: tuple) -> int | None:
    total = 1
    for d in shape:
        if d._production != "Int":
            return None
        total *= d.value
    return total
