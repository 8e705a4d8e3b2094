"""Scalar expressions of the orchestration function (``n * 2 + i``, ``a < b and c``, names, constants)
-> surface expressions and their types.

Integer arithmetic has the meaning the generated C++ gives it: ``//`` and ``%`` fold as C's
``/`` and ``%``, and mixed signedness is typed as C++'s usual arithmetic conversions type it.
The reading is the hot path of the front end: expressions are dispatched by class (``type(node)
is``), the depth limit is counted on the way down instead of by a walk of its own, and the
registry is consulted only for a call (``EXPRESSION`` forms), not per node.
"""

from __future__ import annotations

import ast
import math
from typing import TYPE_CHECKING, Any, Callable

from nanopass.errors import Span as _Span
from nanopass.errors import UserError, quoted
from nanopass.languages import surface as S
from nanopass.suggest import did_you_mean, one_edit_away
from nanopass.languages.terms import BinOp, CmpOp, DType, UnOp

from .consteval import check_expr_depth, describe, too_deep
from .limits import MAX_EXPR_DEPTH
from .names import dsl_call, self_method
from .registry import EXPRESSION, MUST_BE_ASSIGNED, OPS, refusal
from .source import short_source
from . import submit_tuples
from .type_reader import BOOL_T, FLOAT_DTYPES, INDEX, INDEX_T, INT_DTYPES, SCALAR_T, type_text

if TYPE_CHECKING:
    from .context import FunctionContext

L = S.LANGUAGE

_BINOPS = {
    ast.Add: BinOp.add,
    ast.Sub: BinOp.sub,
    ast.Mult: BinOp.mul,
    ast.Div: BinOp.div,
    ast.FloorDiv: BinOp.floordiv,
    ast.Mod: BinOp.mod,
    ast.LShift: BinOp.shl,
    ast.RShift: BinOp.shr,
}
_CMPOPS = {
    ast.Eq: CmpOp.eq,
    ast.NotEq: CmpOp.ne,
    ast.Lt: CmpOp.lt,
    ast.LtE: CmpOp.le,
    ast.Gt: CmpOp.gt,
    ast.GtE: CmpOp.ge,
}
_SHIFTS = frozenset((BinOp.shl, BinOp.shr))
_INTEGER_OPS = frozenset((BinOp.floordiv, BinOp.mod, *_SHIFTS))
_NOT_NUMBERS = frozenset((DType.TASK_ID, DType.BOOL))  # scalars no arithmetic takes
_DIV = BinOp.div
_INT_FLOAT_HINT = "write a float literal (2.0) or keep both sides integers"


def _c_quotient(a: int, b: int) -> int:
    """``a / b`` on C++ integers: the quotient rounded toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


# Integer constants folded in the orchestration body, with the meaning the C++ gives them: the
# DSL's ``//`` and ``%`` print as C ``/`` and ``%`` (reference-behaviour: C semantics, not floor),
# so folding ``-7 // 2`` must give -3, as the unfolded C++ would compute.
_C_FOLD: dict[BinOp, Callable[[Any, Any], Any]] = {
    BinOp.add: lambda a, b: a + b,
    BinOp.sub: lambda a, b: a - b,
    BinOp.mul: lambda a, b: a * b,
    BinOp.floordiv: _c_quotient,
    BinOp.mod: lambda a, b: a - b * _c_quotient(a, b),
    BinOp.shl: lambda a, b: a << b,
    BinOp.shr: lambda a, b: a >> b,
}


def unsigned_mix(a: Any, da: DType, b: Any, db: DType) -> DType | None:
    """The unsigned dtype when C++'s usual arithmetic conversions compute ``a op b`` in unsigned.

    Integers narrower than 32 bits promote to int first; then unsigned wins unless the signed side
    is wider (UINT32 with INT64 stays signed). A constant that is not negative keeps its value
    either way (None); a negative one (a C++ int) would wrap.
    """
    if da is db or da not in INT_DTYPES or db not in INT_DTYPES or (da in _SIGNED) == (db in _SIGNED):
        return None  # (the dtype's properties read from tables: each is a call)
    (s, ds), du = ((a, da), db) if da in _SIGNED else ((b, db), da)
    if type(s) is _INT:
        if s.value >= 0:
            return None
        ds = DType.INT32
    return du if _BITS[du] >= max(_BITS[ds], 32) else None


def expr(cx: FunctionContext, node: ast.expr) -> tuple[Any, Any]:
    """An expression's IR and type; one nested more than MAX_EXPR_DEPTH is refused first.

    The depth is counted while the expression is read rather than by a walk of its own: each
    node is read at its ``expr_depth`` level (``descend``), and a node past the limit stops the
    reading (there, and at a name's context in ``_expr``), so the reader never recurses deeper
    than the limit. When the reading stops on another error, the depth of the whole expression
    is measured: if it is too deep, that error is the one reported.
    """
    if cx.expr_level:  # a sub-expression of the one being read
        return _expr(cx, node)
    kind = type(node)  # a leaf (most expressions read) has no depth to track
    if kind is ast.Name:
        return name(cx, node)
    if kind is ast.Constant:
        return constant(cx, node.value, node)
    cx.expr_root, cx.expr_level = node, 1
    try:
        return binop(cx, node) if kind is ast.BinOp else _expr(cx, node)
    except UserError:
        check_expr_depth(cx.program, node)
        raise
    finally:
        cx.expr_root, cx.expr_level = None, 0


def descend(cx: FunctionContext, levels: int) -> None:
    """Read the next sub-expressions, ``levels`` deeper (``expr_level`` goes back up after)."""
    cx.expr_level += levels
    if cx.expr_level > MAX_EXPR_DEPTH:
        raise too_deep(cx.program, cx.expr_root)


def scalar_expr(cx: FunctionContext, node: ast.expr) -> tuple[Any, Any]:
    expr, ty = cx.expr(node)
    if ty._production != "ScalarType":
        raise cx.error(f"expected a scalar, got a {type_text(ty)}", node)
    return expr, ty


def scalar_operand(cx: FunctionContext, node: ast.expr) -> tuple[Any, Any]:
    """``scalar_expr`` for an operand of the expression being read (its level already set)."""
    expr, ty = _expr(cx, node)
    if ty._production != "ScalarType":
        raise cx.error(f"expected a scalar, got a {type_text(ty)}", node)
    return expr, ty


def _expr(cx: FunctionContext, node: ast.expr) -> tuple[Any, Any]:
    kind = type(node)  # (the usual kinds first, by class: ast.parse makes no subclasses)
    if kind is ast.Name:
        if cx.expr_level >= MAX_EXPR_DEPTH:  # its child, the context (ast.Load), is one deeper
            raise too_deep(cx.program, cx.expr_root)
        return name(cx, node)
    if kind is ast.BinOp:
        return binop(cx, node)
    if kind is ast.Constant:
        return constant(cx, node.value, node)
    if isinstance(node, ast.UnaryOp):
        return unop(cx, node)
    if isinstance(node, ast.Compare):
        return compare(cx, node)
    if isinstance(node, ast.BoolOp):
        return boolop(cx, node)
    if isinstance(node, ast.Subscript):
        if submit_tuples.is_tuple_name(cx, node.value):
            return submit_tuples.element(cx, node)
        raise cx.error(
            "subscripts are allowed only as a whole right-hand side (x = t[i, j]); assign them to a name first",
            node,
        )
    if isinstance(node, ast.Call):
        if self_method(node.func):
            raise cx.error(MUST_BE_ASSIGNED, node)
        spelled = dsl_call(node)
        op = OPS.get(spelled) if spelled is not None else None
        form = op.forms.get(EXPRESSION) if op is not None else None
        if form is None:
            raise refusal(cx, spelled, op, EXPRESSION, node)
        descend(cx, 1)  # (the handler reads the arguments a level deeper)
        read = form.handler(cx, node, op.bind(cx, node, form))
        cx.expr_level -= 1
        return read
    if isinstance(node, ast.IfExp):
        raise cx.error("conditional expressions (x if c else y) are not supported; use an if statement", node)
    raise cx.error(f"unsupported expression {quoted(short_source(node))}", node)


# An index constant is one node per value, shared by every place it is read at (a node is
# immutable and an Int has no span: the trees are the same, with fewer nodes built). Bounded:
# emptied when full.
_INDEX_INTS: dict[int, Any] = {}
_INDEX_INTS_MAX = 1 << 12


def index_int(value: int) -> Any:
    """``Int(value, INDEX)``, of a Python ``int`` an INDEX holds (-2**63 <= value < 2**64)."""
    node = _INDEX_INTS.get(value)
    if node is None:
        if len(_INDEX_INTS) >= _INDEX_INTS_MAX:
            _INDEX_INTS.clear()
        node = _INDEX_INTS[value] = L.Int.make(value, INDEX)
    return node


def constant(cx: FunctionContext, value: Any, node: ast.expr) -> tuple[Any, Any]:
    if type(value) is int:  # (the usual constant first: an index int, most often one read before)
        shared = _INDEX_INTS.get(value)  # (index_int's table, read in place)
        if shared is not None:
            return shared, INDEX_T
        if -(2**63) <= value < 2**64:
            return index_int(value), INDEX_T
    if isinstance(value, bool):
        return L.Bool.make(value), BOOL_T
    if isinstance(value, int):
        if not -(2**63) <= value < 2**64:
            raise cx.error(f"integer {value} does not fit in 64 bits", node)
        return L.Int.make(value, INDEX), INDEX_T
    if isinstance(value, float):
        if not math.isfinite(value):
            raise cx.error(f"a float constant must be finite, got {value}", node)
        return L.Float.make(value, DType.FP32), SCALAR_T[DType.FP32]
    if value is None:
        raise cx.error("None is only allowed as a TaskId value (x = None, deps=[None])", node)
    raise cx.error(f"{describe(value)} cannot be used as a value here", node)


def name(cx: FunctionContext, node: ast.Name) -> tuple[Any, Any]:
    ident = node.id
    binding = cx.visible.get(ident)  # (cx.lookup, inlined: most nodes read are names)
    if binding is not None:
        if binding.kind == "unrolled":
            return cx.unrolled[ident], binding.type
        if type(binding.type) is _SUBMIT_TUPLE:
            submit_tuples.refuse_bare(cx, ident, node)
        arrays = cx.arrays
        if (arrays.stale or arrays.loops) and binding.type._production == "ArrayType":
            arrays.read(binding, ident, node)
        # (a bound name is a symbol: its binding's Binder, parameter or dynamic dimension was
        # built checked with it; a Span is a Span: cx.span(node), inlined for a file of ASCII text)
        span = None
        if cx.ascii_columns:
            try:
                span = _new_tuple(_Span, (cx.filename, node.lineno, node.col_offset))
            except AttributeError:  # (a node the compiler made without a position)
                pass
        if span is None:
            span = cx.span(node)
        return L.Var.make_trusted(ident, span), binding.type
    if node.id in cx.closed:
        raise cx.error(
            f"'{node.id}' is not visible here: it was {cx.closed[node.id]}",
            node,
            hint="assign it before the loop or in both branches so that it is carried out",
        )
    if node.id in cx.src.closure:
        return closure_value(cx, cx.src.closure_get(node.id, node), node)
    known = [n for n in (*cx.visible, *cx.closed) if "__" not in n]  # (not the compiler's own names)
    raise cx.error(f"undefined variable '{node.id}'", node,
                   hint=did_you_mean(node.id, known) or one_edit_away(node.id, known))


def closure_value(cx: FunctionContext, value: Any, node: ast.expr) -> tuple[Any, Any]:
    from nanopass.dsl import DynamicDim

    if isinstance(value, bool):
        return L.Bool.make(value), BOOL_T
    if isinstance(value, (int, float)):
        return constant(cx, value, node)
    if isinstance(value, DynamicDim):
        binding = cx.lookup(value.name)
        if binding is not None and binding.kind == "dyn":
            return L.Var.make(value.name), binding.type
        raise cx.error(
            f"dynamic dimension '{value.name}' is not the extent of any tensor parameter", node
        )
    raise cx.error(
        f"'{node.id}' is {describe(value)}; only int, float and bool values can be used here", node
    )


def binop(cx: FunctionContext, node: ast.BinOp) -> tuple[Any, Any]:
    op = _BINOPS.get(type(node.op))
    if op is None:
        raise cx.error(f"unsupported operator '{_OP_TEXT.get(type(node.op), type(node.op).__name__)}'", node)
    cx.expr_level += 1  # descend(cx, 1) and cx.scalar_operand, inlined: most expressions are these
    if cx.expr_level > MAX_EXPR_DEPTH:
        raise too_deep(cx.program, cx.expr_root)
    # (each operand read as _expr reads it, its three usual kinds without the call of _expr; written
    # out twice: a loop over the two, or a helper called for each, costs 2 % of nested's front end)
    left = node.left
    kind = type(left)
    if kind is _NAME and cx.expr_level < MAX_EXPR_DEPTH:
        a, aty = name(cx, left)
    elif kind is _BINOP:
        a, aty = binop(cx, left)
    elif kind is _CONSTANT:
        a, aty = constant(cx, left.value, left)
    else:
        a, aty = _expr(cx, left)
    if type(aty) is not _SCALAR:
        raise cx.error(f"expected a scalar, got a {type_text(aty)}", left)
    right = node.right
    kind = type(right)
    if kind is _NAME and cx.expr_level < MAX_EXPR_DEPTH:
        b, bty = name(cx, right)
    elif kind is _BINOP:
        b, bty = binop(cx, right)
    elif kind is _CONSTANT:
        b, bty = constant(cx, right.value, right)
    else:
        b, bty = _expr(cx, right)
    if type(bty) is not _SCALAR:
        raise cx.error(f"expected a scalar, got a {type_text(bty)}", right)
    cx.expr_level -= 1
    da = aty.dtype
    if da is bty.dtype and op in _SAME_DTYPE_OPS.get(da, ()):  # (the checks of _mixed_binop pass)
        ty = bty if da is INDEX else aty
        if type(a) is _INT and type(b) is _INT and op in _C_FOLD:
            return _folded(cx, node, op, a, b, da), ty
        # (trusted: an operator of _BINOPS, and two Exprs: what _expr reads is a name's Var, a
        # constant, or a Bin, Un, Cmp or literal the readers of operators and pl.const build)
        return L.Bin.make_trusted(op, a, b), ty
    return _mixed_binop(cx, node, op, a, aty, b, bty)


def _mixed_binop(cx: FunctionContext, node: ast.BinOp, op: BinOp, a: Any, aty: Any, b: Any, bty: Any) -> tuple[Any, Any]:
    """``binop`` of two scalar operands of different dtypes (or of an operator their dtype does not take)."""
    da, db = aty.dtype, bty.dtype
    if da in _NOT_NUMBERS or db in _NOT_NUMBERS:
        bad = aty if da in _NOT_NUMBERS else bty
        raise cx.error(f"arithmetic needs numbers, got a {type_text(bad)}", node)
    if da is not db and (da in FLOAT_DTYPES) != (db in FLOAT_DTYPES):
        raise cx.error(
            f"cannot mix {da.name} and {db.name} in arithmetic (int and float)", node,
            hint=_INT_FLOAT_HINT,
        )
    if op is _DIV and da in INT_DTYPES:
        raise cx.error("'/' on integers is ambiguous; use '//' for integer division", node)
    if op in _INTEGER_OPS and da in FLOAT_DTYPES:
        raise cx.error(f"'{op.value}' needs integers", node)
    mixed = unsigned_mix(a, da, b, db) if da is not db and op not in _SHIFTS else None
    if mixed:  # the unsigned type C++ computes in
        dtype, ty = mixed, SCALAR_T[mixed]
    else:  # an INDEX operand (an integer literal) takes the other one's type
        dtype, ty = (db, bty) if da is INDEX else (da, aty)
    if a._production == "Int" and b._production == "Int" and op in _C_FOLD:
        return _folded(cx, node, op, a, b, dtype), ty
    return _make_bin(op, a, b), ty


def _folded(cx: FunctionContext, node: ast.BinOp, op: BinOp, a: Any, b: Any, dtype: DType) -> Any:
    try:
        return L.Int.make(_C_FOLD[op](a.value, b.value), dtype)
    except (ZeroDivisionError, ValueError):
        raise cx.error("division by zero in a constant expression", node) from None


_SCALAR, _INT, _make_bin = L.ScalarType, L.Int, L.Bin.make
_new_tuple = tuple.__new__
_NAME, _BINOP, _CONSTANT = ast.Name, ast.BinOp, ast.Constant
_SUBMIT_TUPLE = submit_tuples.SubmitTuple  # (a class test: a node's _production is a slow attribute to read)
_SIGNED = frozenset(d for d in INT_DTYPES if d.is_signed)
_TASK_ID = DType.TASK_ID
_BITS = {d: d.bits for d in INT_DTYPES}
# Per dtype, the operators that take two operands of that dtype: those _mixed_binop's checks let
# pass for such a pair (none for the dtypes that are not numbers).
_SAME_DTYPE_OPS = {
    d: frozenset(op for op in _BINOPS.values()
                 if not (op is _DIV and d in INT_DTYPES) and not (op in _INTEGER_OPS and d in FLOAT_DTYPES))
    for d in DType if d not in _NOT_NUMBERS
}


def unop(cx: FunctionContext, node: ast.UnaryOp) -> tuple[Any, Any]:
    descend(cx, 1)
    a, ty = scalar_operand(cx, node.operand)
    cx.expr_level -= 1
    if isinstance(node.op, ast.USub):
        if a._production in ("Int", "Float"):
            return a.replace(value=-a.value), ty
        if ty.dtype is DType.BOOL or ty.dtype is DType.TASK_ID:
            raise cx.error("unary minus needs a number", node)
        return L.Un.make(UnOp.neg, a), ty
    if isinstance(node.op, ast.Not):
        if ty != BOOL_T:
            raise cx.error("'not' needs a bool (a comparison)", node)
        return L.Un.make(UnOp.not_, a), BOOL_T
    if isinstance(node.op, ast.Invert):
        if not ty.dtype.is_int:
            raise cx.error("'~' needs an integer", node)
        return L.Un.make(UnOp.invert, a), ty
    if isinstance(node.op, ast.UAdd):
        return a, ty
    raise cx.error("unsupported unary operator", node)


def compare(cx: FunctionContext, node: ast.Compare) -> tuple[Any, Any]:
    if len(node.ops) != 1:
        raise cx.error("chained comparisons are not supported; use 'and'", node)
    op = _CMPOPS.get(type(node.ops[0]))
    if op is None:
        raise cx.error(f"unsupported comparison '{type(node.ops[0]).__name__}'", node)
    descend(cx, 1)
    a, aty = scalar_operand(cx, node.left)
    b, bty = scalar_operand(cx, node.comparators[0])
    cx.expr_level -= 1
    da, db = aty.dtype, bty.dtype
    if da is _TASK_ID or db is _TASK_ID:
        raise cx.error("TaskIds cannot be compared", node)
    if (da in FLOAT_DTYPES) != (db in FLOAT_DTYPES):
        raise cx.error(f"cannot compare {aty.dtype.name} with {bty.dtype.name}", node, hint=_INT_FLOAT_HINT)
    unsigned = unsigned_mix(a, aty.dtype, b, bty.dtype)
    if unsigned is not None:
        left, right = (str(e.value) if e._production == "Int" else t.dtype.name for e, t in ((a, aty), (b, bty)))
        raise cx.error(
            f"cannot compare {left} with {right}: C++ compares them as {unsigned.c_type}, where a "
            "negative value is a huge one", node, hint="give both sides the same signedness",
        )
    if type(a) is type(b) and a == b and da not in FLOAT_DTYPES:  # (nodes of two classes are not equal)
        # an integer compared with itself has a known result (and C++ warns about it)
        return L.Bool.make(op in (CmpOp.eq, CmpOp.le, CmpOp.ge)), BOOL_T
    # (trusted: an operator of _CMPOPS and two Exprs, as binop's)
    return L.Cmp.make_trusted(op, a, b), BOOL_T


def boolop(cx: FunctionContext, node: ast.BoolOp) -> tuple[Any, Any]:
    op = BinOp.and_ if isinstance(node.op, ast.And) else BinOp.or_
    exprs = []
    descend(cx, len(node.values) - 1)  # the chain becomes that many nested Bins
    for value in node.values:
        expr, ty = scalar_operand(cx, value)
        if ty != BOOL_T:
            raise cx.error(f"'{op.value}' needs bools (comparisons)", value)
        exprs.append(expr)
    cx.expr_level -= len(node.values) - 1
    result = exprs[0]
    for expr in exprs[1:]:
        result = L.Bin.make(op, result, expr)
    return result, BOOL_T


_OP_TEXT = {ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.MatMult: "@"}
