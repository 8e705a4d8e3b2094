"""The type of a scalar expression, given the types of the names it reads."""

from __future__ import annotations

from nanopass.languages.named import LANGUAGE as _NAMED, binder_list
from nanopass.languages.statements import DEFINING, defined_binders, iter_stmts
from nanopass.languages.terms import BinOp, DType, UnOp


def type_env(func) -> dict[str, object]:
    """name -> Type for every parameter and Binder of a function of the languages from hoisted to
    encoded (by the names the tree spells)."""
    env: dict[str, object] = {p.name: p.type for p in func.params}
    for binder in binder_list(func.body):
        env[binder.name] = binder.type
    return env


_FLOAT_DTYPES = frozenset(d for d in DType if d.is_float)
# named's classes (hoisted's, dimmed's and encoded's too: ``named.binder_list``)
_SCALAR_TYPE, _TASK, _FOR, _YIELD, _SCOPE = (_NAMED.nodes[n] for n in ("ScalarType", "Task", "For", "Yield", "Scope"))
_VAR_STMTS = frozenset(_NAMED.nodes[n] for n in ("Let", "Dummy", "Declare"))
# (read once: an enum member read through its class costs a descriptor call, and these are read
# for every operator of every scalar argument)
_AND, _OR, _NOT = BinOp.and_, BinOp.or_, UnOp.not_


def float_names(env) -> frozenset[str]:
    """The names ``env`` (name -> Type) gives a float scalar type."""
    return frozenset(name for name, ty in env.items() if ty._production == "ScalarType" and ty.dtype in _FLOAT_DTYPES)


def float_scalar_names(func) -> set[str]:
    """``float_names(type_env(func))``, without the map: the names whose last binding (a parameter
    first, then each Binder in order) is a float scalar. Empty at once when no binding is one (found in
    the walk of the body, which the verification of the input language has made already)."""
    floats: set[str] = set()
    if not binds_a_float_scalar(func):
        return floats
    for binder in (*func.params, *binder_list(func.body)):
        ty = binder.type
        if ty._production == "ScalarType" and ty.dtype in _FLOAT_DTYPES:
            floats.add(binder.name)
        elif floats:
            floats.discard(binder.name)  # (bound again, to another type)
    return floats


def binds_a_float_scalar(func) -> bool:
    """Whether a parameter of ``func`` or a Binder in its body has a float scalar type (a function
    of the languages from hoisted to encoded: their statements are read by node class)."""
    floats, scalar_type = _FLOAT_DTYPES, _SCALAR_TYPE
    for param in func.params:
        ty = param.type
        if type(ty) is scalar_type and ty.dtype in floats:
            return True
    task, for_, yield_, scope, var_stmts = _TASK, _FOR, _YIELD, _SCOPE, _VAR_STMTS
    for stmt in iter_stmts(func.body):
        kind = type(stmt)
        if kind is task:  # (its outs are Binders in these languages)
            for out in stmt.outs:
                ty = out.type
                if type(ty) is scalar_type and ty.dtype in floats:
                    return True
            tid = stmt.tid
            if tid is not None:
                ty = tid.type
                if type(ty) is scalar_type and ty.dtype in floats:
                    return True
        elif kind is yield_ or kind is scope:
            continue
        elif kind is for_:
            ty = stmt.var.type
            if type(ty) is scalar_type and ty.dtype in floats:
                return True
            for it in stmt.iters:
                ty = it.var.type
                if type(ty) is scalar_type and ty.dtype in floats:
                    return True
            for result in stmt.results:
                ty = result.type
                if type(ty) is scalar_type and ty.dtype in floats:
                    return True
        elif kind in var_stmts:
            ty = stmt.var.type
            if type(ty) is scalar_type and ty.dtype in floats:
                return True
        elif stmt._production in DEFINING:
            for binder in defined_binders(stmt):
                ty = binder.type
                if type(ty) is scalar_type and ty.dtype in floats:
                    return True
    return False


def expr_is_float(expr, env) -> bool:
    """Whether the scalar expression ``expr`` is a float (``env``: name -> Type): it is when a
    float operand reaches it through arithmetic (not through ``and``/``or``, a comparison or
    ``not``, which make a bool); a name not in ``env`` as a scalar counts as an INT64."""
    return reaches_float(expr, float_names(env))


def reaches_float(expr, floats) -> bool:
    """``expr_is_float`` given the names of the float scalars (``float_names``). An operand that
    is a name or a number is looked at where its operation is met, not pushed."""
    stack = [expr]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        kind = node._production
        if kind == "Bin":
            op = node.op
            if op is _AND or op is _OR:
                continue
            for operand in (node.a, node.b):
                operand_kind = operand._production
                if operand_kind == "Var":
                    if operand.name in floats:
                        return True
                elif operand_kind != "Int":
                    push(operand)
                elif operand.dtype in _FLOAT_DTYPES:
                    return True
        elif kind == "Var":
            if node.name in floats:
                return True
        elif kind == "Int" or kind == "Float":
            if node.dtype in _FLOAT_DTYPES:
                return True
        elif kind == "Un":
            if node.op is not _NOT:
                push(node.a)
        elif kind != "Bool" and kind != "Cmp":
            raise ValueError(f"not a scalar expression: {kind}")
    return False
