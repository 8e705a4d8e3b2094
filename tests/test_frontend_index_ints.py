"""The front end reads an index constant as one ``Int(value, INDEX)`` node per value
(``exprs.index_int``), shared by every place it is read at: the surface tree is the one a fresh
node per place gives (an Int has no span, a node is immutable), on every example and golden
program and the bench shapes, and so is every later stage's output; the table is bounded."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES_AND_GOLDEN, SHAPES, bench_file, cpp_of, load_program

from nanopass.languages import surface as S
from nanopass.languages.terms import DType
from nanopass.language import walk
from nanopass.passes.frontend import exprs

L = S.LANGUAGE


def _fresh(value):
    return L.Int.make(value, DType.INDEX)


def _surface(path: Path, shared: bool):
    with pytest.MonkeyPatch.context() as patch:
        if not shared:
            patch.setattr(exprs, "index_int", _fresh)
            patch.setattr(exprs, "_INDEX_INTS", {})  # (exprs.constant reads the table in place: empty, unfilled)
            for module in ("loops", "operands"):
                patch.setattr(f"nanopass.passes.frontend.ops.{module}.index_int", _fresh)
        return load_program(path).surface()


def _spans(tree) -> list:
    return [(node._production, node.span) for node in walk(tree)]


def _same_both_ways(path: Path) -> None:
    shared, fresh = _surface(path, True), _surface(path, False)
    assert shared == fresh
    assert _spans(shared) == _spans(fresh)


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=lambda p: p.stem)
def test_programs_read_the_same_with_shared_constants(path: Path):
    _same_both_ways(path)


@pytest.mark.parametrize("shape", SHAPES)
def test_bench_shapes_read_the_same_and_share_their_constants(tmp_path, shape):
    path = bench_file(tmp_path, shape, 24)
    _same_both_ways(path)

    def index_ints(tree) -> set[int]:
        return {id(node) for node in walk(tree) if node._production == "Int" and node.dtype is DType.INDEX}

    assert len(index_ints(_surface(path, True))) < len(index_ints(_surface(path, False)))


@pytest.mark.parametrize("shape", ["nested", "assembles"])
def test_the_cpp_is_the_same_with_shared_constants(tmp_path, shape):
    path = bench_file(tmp_path, shape, 24)
    shared = cpp_of([path])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(exprs, "index_int", _fresh)
        patch.setattr(exprs, "_INDEX_INTS", {})
        for module in ("loops", "operands"):
            patch.setattr(f"nanopass.passes.frontend.ops.{module}.index_int", _fresh)
        fresh = cpp_of([path])
    assert shared == fresh


def test_one_node_per_value_and_the_table_is_bounded(monkeypatch):
    monkeypatch.setattr(exprs, "_INDEX_INTS", {})
    monkeypatch.setattr(exprs, "_INDEX_INTS_MAX", 4)
    first = exprs.index_int(7)
    assert exprs.index_int(7) is first and first == _fresh(7) and first.span is None
    for value in range(4):
        exprs.index_int(value)
    assert len(exprs._INDEX_INTS) <= 4
    assert exprs.index_int(7) == first
