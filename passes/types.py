"""The type of a scalar expression, given the types of the names it reads."""

from __future__ import annotations

from nanopass.languages.statements import binder_list
from nanopass.languages.terms import BinOp, DType, UnOp


def type_env(func) -> dict[str, object]:
    """name -> Type for every parameter and Binder of a function (its C++ names, once named)."""
    env: dict[str, object] = {p.name: p.type for p in func.params}
    for binder in binder_list(func.body):
        env[binder.name] = binder.type
    return env


_FLOAT_DTYPES = frozenset(d for d in DType if d.is_float)
# (read once: an enum member read through its class costs a descriptor call, and these are read
# for every operator of every scalar argument)
_AND, _OR, _NOT = BinOp.and_, BinOp.or_, UnOp.not_


def expr_is_float(expr, env) -> bool:
    """Whether the scalar expression ``expr`` is a float (``env``: name -> Type): it is when a
    float operand reaches it through arithmetic (not through ``and``/``or``, a comparison or
    ``not``, which make a bool); a name not in ``env`` as a scalar counts as an INT64."""
    stack = [expr]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        kind = node._production
        if kind == "Var":
            ty = env.get(node.name)
            if ty is not None and ty._production == "ScalarType" and ty.dtype in _FLOAT_DTYPES:
                return True
        elif kind == "Bin":
            op = node.op
            if op is not _AND and op is not _OR:
                push(node.b)
                push(node.a)
        elif kind == "Int" or kind == "Float":
            if node.dtype in _FLOAT_DTYPES:
                return True
        elif kind == "Un":
            if node.op is not _NOT:
                push(node.a)
        elif kind != "Bool" and kind != "Cmp":
            raise ValueError(f"not a scalar expression: {kind}")
    return False
