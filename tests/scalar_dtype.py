"""The dtype of a scalar expression by the C++ rules, computed for every sub-expression: the
tests' reference for what encode_scalars decides from kernel parameters alone."""

from __future__ import annotations

from nanopass.languages.terms import BinOp, DType, UnOp


def expr_dtype(expr, env) -> DType:
    """``env``: name -> Type; a name not in it as a scalar counts as an INT64."""
    kind = expr._production
    if kind == "Var":
        ty = env.get(expr.name)
        return ty.dtype if ty is not None and ty._production == "ScalarType" else DType.INT64
    if kind == "Bin":
        if expr.op in (BinOp.and_, BinOp.or_):
            return DType.BOOL
        a, b = expr_dtype(expr.a, env), expr_dtype(expr.b, env)
        return a if a.is_float else b if b.is_float else (b if a is DType.INDEX else a)
    if kind in ("Int", "Float"):
        return expr.dtype
    if kind in ("Bool", "Cmp"):
        return DType.BOOL
    return DType.BOOL if expr.op is UnOp.not_ else expr_dtype(expr.a, env)
