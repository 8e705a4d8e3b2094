"""encode_scalars' float names: ``float_scalar_names`` is ``float_names(type_env(func))``, the
encoded function lists them, and a program that binds no float scalar gets its empty set without
the ordered walk of every Binder."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from conftest import EXAMPLES, REPO, load_program

import nanopass.passes.types as types
from nanopass.api import run_pipeline
from nanopass.languages import DIMMED
from nanopass.languages.terms import DType
from nanopass.passes.types import binds_a_float_scalar, float_names, float_scalar_names, reaches_float, type_env
from nanopass.tools.bench import source_of

PROGRAMS = sorted([*EXAMPLES.glob("*.py"), *(REPO / "tests" / "golden").glob("*.py")])
SHAPES = ["straight", "nested", "mixed", "scopes", "branches", "tiles", "assembles"]


def encode_scalars_input(path):
    stages = run_pipeline(load_program(path), stop_after="encode_scalars")
    return next(s.tree for s in reversed(stages) if s.language is DIMMED).orch


def functions(tmp_path):
    for path in PROGRAMS:
        yield path.stem, encode_scalars_input(path)
    for shape in SHAPES:
        path = tmp_path / f"{shape}.py"
        path.write_text(source_of(shape, 40))
        yield shape, encode_scalars_input(path)


def test_float_scalar_names_are_the_float_names_of_the_type_map(tmp_path):
    with_floats = 0
    for name, func in functions(tmp_path):
        expected = float_names(type_env(func))
        assert float_scalar_names(func) == expected, name
        assert binds_a_float_scalar(func) == bool(expected), name
        with_floats += bool(expected)
    assert with_floats >= 2  # (both ways are exercised: scalars.py, loop_scalar.py ...)


def test_no_float_binding_skips_the_ordered_walk(tmp_path, monkeypatch):
    path = tmp_path / "nested.py"
    path.write_text(source_of("nested", 40))
    func = encode_scalars_input(path)
    walks = []
    original = types.binder_list
    monkeypatch.setattr(types, "binder_list", lambda *args: walks.append(args) or original(*args))
    assert float_scalar_names(func) == set() and walks == []
    assert type_env(func) and walks  # (the counting sees the walk where one is made)


def test_encode_scalars_lists_the_float_names_of_the_type_map_sorted(tmp_path):
    """``float_scalars`` of the encoded function is its input's ``float_names(type_env(func))``,
    sorted, on every example, golden program and bench shape; the body is the input's."""
    with_floats = 0
    for path in [*PROGRAMS, *_shape_paths(tmp_path)]:
        stages = run_pipeline(load_program(path), stop_after="encode_scalars")
        before, after = stages["define_dynamic_dim_symbols"].tree.orch, stages["encode_scalars"].tree.orch
        expected = sorted(float_names(type_env(before)))
        assert list(after.float_scalars) == expected, path.name
        assert after.body is before.body, path.name
        with_floats += bool(expected)
    assert with_floats >= 2  # (both ways are exercised: scalars.py, loop_scalar.py ...)


def _shape_paths(tmp_path):
    for shape in SHAPES:
        path = tmp_path / f"{shape}.py"
        path.write_text(source_of(shape, 40))
        yield path


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
