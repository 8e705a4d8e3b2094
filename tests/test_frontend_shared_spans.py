"""An assignment ``x = ...`` whose statement begins at its target gives its Let the Binder's Span
(``statements._statement_span``): the surface trees, spans included, are the ones ``cx.span(stmt)``
gives (forced), on every example and golden program, the bench shapes and random programs, and a
statement that begins elsewhere (a parenthesized target) keeps its own position."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import corpus_tests, load_program, random_file

from nanopass.errors import UserError
from nanopass.language import walk
from nanopass.passes.frontend import statements


def _read(path: Path, shared: bool):
    with pytest.MonkeyPatch.context() as patch:
        if not shared:
            patch.setattr(statements, "_statement_span", lambda cx, stmt, target, span: cx.span(stmt))
        try:
            tree = load_program(path).surface()
        except UserError as error:
            return str(error), error.span
        return tree, [(node._production, node.span) for node in walk(tree)]


def _same_both_ways(path: Path) -> None:
    assert _read(path, True) == _read(path, False)


test_programs, test_bench_shapes = corpus_tests(_same_both_ways)


@pytest.mark.parametrize("seed", range(3930, 3960))
def test_random_programs(tmp_path, seed):
    _same_both_ways(random_file(tmp_path, seed, manual=seed % 3 == 0))


def test_a_statement_that_begins_before_its_target_keeps_its_position(tmp_path):
    path = tmp_path / "paren.py"
    path.write_text(
        "import nanopass.dsl as pl\n\n\n@pl.program\nclass P:\n"
        "    @pl.function(type=pl.FunctionType.AIV)\n"
        "    def k(self, n: pl.Scalar[pl.INT64], y: pl.InOut[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:\n"
        "        return y\n\n"
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        "    def orch(self, y: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16], pl.FP32]:\n"
        "        (m) = n + 1\n"
        "        j = m * 2\n"
        "        y = self.k(j, y)\n"
        "        return y\n"
    )
    tree, spans = _read(path, True)
    assert _read(path, False) == (tree, spans)
    lets = [node for node in walk(tree) if node._production == "Let"]
    assert [(let.span.line, let.span.col, let.var.span.col) for let in lets] == [(12, 8, 9), (13, 8, 8)]
    assert lets[1].span is lets[1].var.span
