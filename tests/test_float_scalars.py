"""The float names: ``float_scalar_names`` is ``float_names(type_env(func))``, and a program that
binds no float scalar gets its empty set without the ordered walk of every Binder."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from conftest import EXAMPLES_AND_GOLDEN, bench_file, pass_input, sample_paths

import nanopass.passes.types as types
from nanopass.languages.terms import DType
from nanopass.passes.types import binds_a_float_scalar, float_names, float_scalar_names, reaches_float, type_env

SHAPES = ["straight", "nested", "mixed", "scopes", "branches", "tiles", "assembles"]


def encode_scalars_input(path):
    return pass_input(path, "encode_scalars").orch


def functions(tmp_path):
    for path in [*EXAMPLES_AND_GOLDEN, *sample_paths(tmp_path, SHAPES, 40)]:
        yield path.stem, encode_scalars_input(path)


def test_float_scalar_names_are_the_float_names_of_the_type_map(tmp_path):
    with_floats = 0
    for name, func in functions(tmp_path):
        expected = float_names(type_env(func))
        assert float_scalar_names(func) == expected, name
        assert binds_a_float_scalar(func) == bool(expected), name
        with_floats += bool(expected)
    assert with_floats >= 2  # (both ways are exercised: scalars.py, loop_scalar.py ...)


def test_no_float_binding_skips_the_ordered_walk(tmp_path, monkeypatch):
    func = encode_scalars_input(bench_file(tmp_path, "nested", 40))
    walks = []
    original = types.binder_list
    monkeypatch.setattr(types, "binder_list", lambda *args: walks.append(args) or original(*args))
    assert float_scalar_names(func) == set() and walks == []
    assert type_env(func) and walks  # (the counting sees the walk where one is made)


def test_a_name_bound_again_to_another_type_is_not_a_float():
    from nanopass.languages import ENCODED as E

    f32, i64 = E.ScalarType(DType.FP32), E.ScalarType(DType.INT64)

    # a parameter x: FP32 (a name and a type, as a Param reads), then a Let x: INT64 in the body
    body = (E.Let(E.Binder("x", i64), E.Int(1, DType.INT64)),)
    func = SimpleNamespace(params=(E.Binder("x", f32),), body=body)
    assert float_names(type_env(func)) == frozenset()
    assert float_scalar_names(func) == set()


@pytest.mark.parametrize("name, floats, expected", [("f", {"f"}, True), ("f", set(), False), ("i", {"f"}, False)])
def test_reaches_float_reads_names_through_arithmetic_only(name, floats, expected):
    from nanopass.languages import ENCODED as E
    from nanopass.languages.terms import BinOp, CmpOp

    one = E.Int(1, DType.INT64)
    assert reaches_float(E.Bin(BinOp.add, one, E.Bin(BinOp.mul, E.Var(name), one)), floats) is expected
    assert reaches_float(E.Cmp(CmpOp.lt, E.Var(name), one), floats) is False
    assert reaches_float(E.Bin(BinOp.and_, E.Var(name), one), floats) is False
