"""The type of a scalar expression, given the types of the names it reads."""

from __future__ import annotations

from nanopass.languages.statements import binders_in_order
from nanopass.languages.terms import BinOp, DType, UnOp


def type_env(func) -> dict[str, object]:
    """name -> Type for every parameter and Binder of a function (its C++ names, once named)."""
    env: dict[str, object] = {p.name: p.type for p in func.params}
    for binder in binders_in_order(func.body):
        env[binder.name] = binder.type
    return env


def expr_dtype(expr, env) -> DType:
    kind = expr._production
    if kind == "Var":
        ty = env.get(expr.name)
        if ty is not None and ty._production == "ScalarType":
            return ty.dtype
        return DType.INT64
    if kind == "Bin":
        if expr.op is BinOp.and_ or expr.op is BinOp.or_:
            return DType.BOOL
        a = expr_dtype(expr.a, env)
        if a.is_float:
            return a
        b = expr_dtype(expr.b, env)
        if b.is_float:
            return b
        return b if a is DType.INDEX else a
    if kind in ("Int", "Float"):
        return expr.dtype
    if kind in ("Bool", "Cmp"):
        return DType.BOOL
    if kind == "Un":
        return DType.BOOL if expr.op is UnOp.not_ else expr_dtype(expr.a, env)
    raise ValueError(f"not a scalar expression: {kind}")
