"""The front end's fast paths decide as the general code they skip: binop's table of the operators
a dtype takes against ``_mixed_binop``'s checks, ``unsigned_mix``'s tables against ``DType``'s
properties, and a name's span built in ``exprs.name`` against ``ProgramSource.span`` (a file of
ASCII text, one with other characters, a node without a position). The surface trees and messages
of whole programs are compared with the previous front end by ``tools/frontend_snapshot.py``."""

from __future__ import annotations

import ast
import itertools

import pytest

from nanopass.errors import UserError
from nanopass.languages import surface as S
from nanopass.languages.terms import DType
from nanopass.passes.frontend import exprs
from nanopass.passes.frontend.source import ProgramSource
from nanopass.passes.frontend.type_reader import SCALAR_T

L = S.LANGUAGE


class _Cx:
    """What binop's checks read of a FunctionContext: its error()."""

    def error(self, message, node, hint=None):
        return UserError(message, None, hint)


def _reference_unsigned_mix(a, da, b, db):
    """unsigned_mix as written before its tables: DType's properties."""
    if da is db or not (da.is_int and db.is_int) or da.is_signed == db.is_signed:
        return None
    (s, ds), du = ((a, da), db) if da.is_signed else ((b, db), da)
    if s._production == "Int":
        if s.value >= 0:
            return None
        ds = DType.INT32
    return du if du.bits >= max(ds.bits, 32) else None


def test_same_dtype_ops_are_the_ones_the_checks_accept():
    node = ast.parse("a + b").body[0].value
    for dtype, op in itertools.product(DType, exprs._BINOPS.values()):
        a, b, ty = L.Var("a"), L.Var("b"), SCALAR_T[dtype]
        try:
            exprs._mixed_binop(_Cx(), node, op, a, ty, b, ty)
            accepted = True
        except UserError:
            accepted = False
        assert (op in exprs._SAME_DTYPE_OPS.get(dtype, ())) == accepted, (dtype, op)


def test_unsigned_mix_tables_agree_with_the_dtype_properties():
    operands = [L.Var("v"), L.Int(5, DType.INDEX), L.Int(-5, DType.INDEX)]
    for da, db in itertools.product(DType, DType):
        for a, b in itertools.product(operands, operands):
            assert exprs.unsigned_mix(a, da, b, db) == _reference_unsigned_mix(a, da, b, db), (da, db, a, b)


@pytest.mark.parametrize("text", ["x = y + z\n", "é = 1; x = y + z\n"])
def test_a_names_span_is_the_sources(text):
    source = ProgramSource("P", "f.py", text, ast.parse(text).body[0])
    cx = _NameCx(source)
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Name):
            var, _ty = exprs.name(cx, node)
            assert var.span == source.span(node) and type(var.span) is type(source.span(node))
    positionless = ast.Name("y", ast.Load())
    var, _ty = exprs.name(cx, positionless)
    assert var.span == source.span(positionless)


class _NameCx:
    """What exprs.name reads of a FunctionContext, every name bound to an INT64 local."""

    def __init__(self, source):
        from nanopass.passes.frontend.array_names import ArrayNames
        from nanopass.passes.frontend.scope import new_binding

        self.visible = {n: new_binding(SCALAR_T[DType.INT64], "local", None) for n in ("x", "y", "z", "é")}
        self.span = source.span
        self.filename = source.filename
        self.ascii_columns = not source.wide_line_numbers()
        self.arrays = ArrayNames(source.span)


@pytest.mark.parametrize("shape", ["[16, 16]", "(4,)", "[0, 16]", "[16, 2**32]", "[4294967295]", "[True, 2]",
                                   "[1.0]", "[]", "[1, 1, 1, 1, 1, 1, 1, 1, 1]", "[-1]", "[16, 'a']"])
def test_a_constant_shape_reads_as_index_list_and_the_extent_checks_read_it(shape):
    from nanopass.passes.frontend.ops import operands

    node = ast.parse(shape.replace("2**32", str(2**32))).body[0].value

    def general():  # shape_list's reading of a list, without its fast path
        dims = operands.index_list(_Cx(), node, "create_tensor", shape=True)
        for dim, elt in zip(dims, node.elts):
            if type(dim) is L.Int and not 0 < dim.value < operands.MAX_DIM:
                operands.check_extent(_Cx(), dim.value, elt)
        if not 1 <= len(dims) <= operands.MAX_TENSOR_DIMS:
            raise _Cx().error(f"a tensor has 1 to {operands.MAX_TENSOR_DIMS} dimensions, got {len(dims)}", node)
        return dims

    outcomes = []
    for read in (lambda: operands.shape_list(_Cx(), node, "create_tensor"), general):
        try:
            outcomes.append(read())
        except UserError as error:
            outcomes.append(error.message)
        except Exception as error:  # (cx.expr of a non-constant: the stub has none)
            outcomes.append(type(error))
    assert outcomes[0] == outcomes[1]
