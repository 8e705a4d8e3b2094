"""SPMD launches (reference-surface.md section 1): one task run on ``core_num`` blocks.

- ``out, tid = pl.spmd_submit(self.k, *args, core_num=N, sync_start=False, deps=[...], dumps=, allow_early_resolve=)``: a
  ``pl.submit`` whose task carries a launch spec;
- ``with pl.spmd(core_num, *, sync_start=False, name_hint="", ...) [as tid]:`` and
  ``for i in pl.spmd(core_num, ...):`` (``i`` is the block index, kernel-side): the block outlined
  into a kernel as ``pl.at`` does (``outlining``), its task carrying the launch spec;
- ``with pl.cluster(name_hint=""):``: the block's kernel calls outlined into one Group kernel
  (the AIC and AIV kernels it calls launched together, ``MixedKernels``).

The launch spec (``LaunchSpec blocks sync_start region``) is printed as ``launch_spec.set_block_num(N)``
(``set_core_num(N)`` with ``--backend Ascend950``) and, only when true, ``launch_spec.set_require_sync_start(true)``. ``core_num`` is a positive int
expression (a literal, a scalar parameter, any scalar expression) no larger than the runtime's
``int16_t`` block count. The task of a ``with pl.spmd`` block is commented ``// Spmd <func>_spmd_<k>:
<kernel>`` (k counts the function's such blocks from 0), as the reference prints it.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from nanopass.languages import surface as S
from nanopass.languages.terms import FuncKind

from ..registry import CONTEXT, EXPRESSION, ITERATOR, MUST_BE_ASSIGNED, STATEMENT, TARGETS, dsl_op
from .outlining import bind_arguments, outline_block
from .submits import refuse_predicate, submit

if TYPE_CHECKING:
    from ..context import FunctionContext

L = S.LANGUAGE

MAX_BLOCKS = 32767  # PTO2LaunchSpec::set_block_num takes an int16_t (runtime-api.md section 7)
LAUNCH_KEYWORDS = ("core_num", "sync_start", "predicate")  # the others are pl.submit's (dumps=, ...)
SPMD_KEYWORDS = ("sync_start", "name_hint", "optimizations", "deps", "allow_early_resolve", "predicate", "dumps")


@dsl_op("spmd_submit", TARGETS, misplaced={
    STATEMENT: "pl.spmd_submit(...) must be unpacked: out, tid = pl.spmd_submit(...)",
    EXPRESSION: MUST_BE_ASSIGNED,
})
def spmd_submit(
    cx: FunctionContext, call: ast.Call, targets: list[ast.expr], tuple_target: bool, stmt: ast.stmt
) -> list[Any]:
    launch_args = {kw.arg: kw.value for kw in call.keywords if kw.arg in LAUNCH_KEYWORDS}
    if "core_num" not in launch_args:
        raise cx.error("pl.spmd_submit needs core_num=N (the number of blocks to launch)", call)
    _refuse(cx, launch_args, "pl.spmd_submit")
    plain = ast.Call(func=call.func, args=call.args, keywords=[kw for kw in call.keywords
                                                              if kw.arg not in LAUNCH_KEYWORDS])
    ast.copy_location(plain, call)
    plain.end_lineno, plain.end_col_offset = call.end_lineno, call.end_col_offset
    [task] = submit(cx, plain, targets, tuple_target, stmt, what="pl.spmd_submit")
    return [task.replace(launch=launch_spec(cx, launch_args["core_num"], launch_args.get("sync_start")))]


@dsl_op("spmd", CONTEXT, binds_as=True)
def spmd_block(cx: FunctionContext, stmt: ast.With, call: ast.Call) -> list[Any]:
    """``with pl.spmd(core_num, ...) [as tid]:``: the block outlined, launched on core_num blocks."""
    args = bind_arguments(cx, call, "spmd", ("core_num",), SPMD_KEYWORDS)
    return _outlined(cx, stmt, call, args)


@dsl_op("spmd", ITERATOR)
def spmd_loop(cx: FunctionContext, stmt: ast.For, call: ast.Call) -> list[Any]:
    """``for i in pl.spmd(core_num, ...):``: the body outlined (``i`` is its block index)."""
    if stmt.orelse:
        raise cx.error("for ... else is not supported", stmt.orelse[0])
    if not isinstance(stmt.target, ast.Name):
        raise cx.error("the variable of a pl.spmd loop is one name (the block index)", stmt.target)
    args = bind_arguments(cx, call, "spmd", ("core_num",), SPMD_KEYWORDS)
    block = ast.With(items=[ast.withitem(call, None)], body=stmt.body)
    ast.copy_location(block, stmt)
    block.end_lineno, block.end_col_offset = stmt.end_lineno, stmt.end_col_offset
    return _outlined(cx, block, call, args, local=(stmt.target.id,))


def _outlined(cx: FunctionContext, stmt: ast.With, call: ast.Call, args: dict[str, ast.expr],
              local: tuple[str, ...] = ()) -> list[Any]:
    if "core_num" not in args:
        raise cx.error("pl.spmd needs core_num (the number of blocks to launch)", call)
    _refuse(cx, args, "pl.spmd")
    count = getattr(cx, "_spmd_count", 0)
    cx._spmd_count = count + 1
    spec = launch_spec(cx, args["core_num"], args.get("sync_start"), f"{cx.fdef.name}_spmd_{count}")
    return outline_block(cx, stmt, call, args, what="pl.spmd", launch=lambda task: task.replace(launch=spec),
                         local=local)


@dsl_op("cluster", CONTEXT)
def cluster(cx: FunctionContext, stmt: ast.With, call: ast.Call) -> list[Any]:
    """``with pl.cluster(name_hint=""):``: the kernels the block calls launched as one Group task."""
    args = bind_arguments(cx, call, "cluster", (), ("name_hint",))
    return outline_block(cx, stmt, call, args, what="pl.cluster", kind=FuncKind.Group)


def launch_spec(cx: FunctionContext, core_num: ast.expr, sync_start: ast.expr | None, region: str | None = None) -> Any:
    blocks, ty = cx.scalar_expr(core_num)
    if ty._production != "ScalarType" or not ty.dtype.is_int:
        raise cx.error("core_num must be an integer (the number of blocks)", core_num)
    if blocks._production == "Int" and not 1 <= blocks.value <= MAX_BLOCKS:
        raise cx.error(f"core_num must be between 1 and {MAX_BLOCKS} (the runtime's block count is an int16_t), "
                       f"got {blocks.value}", core_num)
    sync = False
    if sync_start is not None:
        if not (isinstance(sync_start, ast.Constant) and isinstance(sync_start.value, bool)):
            raise cx.error("sync_start= must be True or False", sync_start)
        sync = sync_start.value
    return L.LaunchSpec.make(blocks, sync, region, span=cx.span(core_num))


def _refuse(cx: FunctionContext, args: dict[str, ast.expr], what: str) -> None:
    refuse_predicate(cx, args.get("predicate"), what)
