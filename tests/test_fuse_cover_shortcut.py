"""``dead_assembles``' index of a block's fills (``LaterFills``) answers that no fill is overwritten
without a search when no two fills of the block can cover one another (``none_covered``: no two
of the same rows or expressions, one nonzero volume per buffer): with the shortcut forced off,
fuse_create_assemble_to_slice gives the same output (or the same refusal) on every example and
golden program, the bench shapes, random programs and programs of the rows grammar (row blocks
of a target, assembles, some covering others); the shortcut is taken on the assembles shape and
not where a later fill covers an earlier one."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES, REPO, load_program
from test_call_directions_in_one_loop import corpus

from nanopass.api import run_pipeline
from nanopass.errors import UserError
from nanopass.languages.statements import reusing_walks
from nanopass.passes import assembled_rows
from nanopass.passes.fuse_create_assemble_to_slice import FuseCreateAssembleToSlice
from nanopass.pipeline import PipelineError
from nanopass.rewrite import PassContext
from nanopass.tools.attack import rows as rows_grammar
from nanopass.tools.bench import source_of

PROGRAMS = sorted(p for d in (EXAMPLES, REPO / "tests" / "golden") for p in d.glob("*.py"))


def fused(tree):
    """The pass's output on ``tree``, or its refusal's message."""
    try:
        with reusing_walks():
            return FuseCreateAssembleToSlice(PassContext()).run(tree)
    except UserError as error:
        return f"refused: {error}"


def both_ways(path: Path, monkeypatch):
    """The pass's output on its input in the compile of ``path`` with the shortcut and without;
    None when the compile stops before the pass."""
    try:
        stages = run_pipeline(load_program(path), stop_after="check_reshape_sources_contiguous")
    except (UserError, PipelineError):
        return None
    tree = stages[-1].tree
    fast = fused(tree)
    with monkeypatch.context() as patch:
        patch.setattr(assembled_rows, "COVER_SHORTCUT", False)
        slow = fused(tree)
    return fast, slow


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_the_shortcut_changes_no_fusion_of_examples_and_golden_programs(path: Path, monkeypatch):
    got = both_ways(path, monkeypatch)
    assert got is not None
    assert got[0] == got[1]


def test_the_shortcut_changes_no_fusion_of_shapes_random_and_rows_programs(tmp_path, monkeypatch):
    paths = corpus(tmp_path, 3710, rows_grammar, (2, 3), 80)
    compared = refused = 0
    for path in paths:
        got = both_ways(path, monkeypatch)
        if got is None:
            continue
        assert got[0] == got[1], path.name
        compared += 1
        refused += isinstance(got[0], str)
    assert compared >= 100 and refused < compared


def test_the_shortcut_is_taken_where_no_fill_covers_another_only(tmp_path, monkeypatch):
    taken = []
    init = assembled_rows.LaterFills.__init__

    def recording(self, *args):
        init(self, *args)
        taken.append(self.none_covered)

    monkeypatch.setattr(assembled_rows.LaterFills, "__init__", recording)
    path = tmp_path / "assembles.py"
    path.write_text(source_of("assembles", 24))
    run_pipeline(load_program(path), stop_after="fuse_create_assemble_to_slice")
    assert taken == [True]
    # a later assemble of the same rows of a created target covers the first: no shortcut, and
    # the first assemble is dropped as dead (its rows are overwritten before anything reads them)
    for name, source in (("same_rows", COVERED), ("larger_box", COVERED.replace(LATER_ROWS, LARGER_BOX))):
        path = tmp_path / f"{name}.py"
        path.write_text(source)
        taken.clear()
        fast, slow = both_ways(path, monkeypatch)
        assert taken == [False, False]  # (with the shortcut and without)
        assert fast == slow and not isinstance(fast, str)
        # the first assemble was dropped: its source is no slice of big
        creates = [s for s in fast.orch.body if s._production == "Let" and s.var.name.startswith("a")]
        assert [s.value._production for s in creates] == ["CreateTensor"], name


LATER_ROWS = """\
        b = pl.create_tensor([16, 16], dtype=pl.FP32)
        b = self.step(x, b)
        big = pl.assemble(big, b, [0, 0])
"""
LARGER_BOX = """\
        b = pl.create_tensor([32, 16], dtype=pl.FP32)
        b = self.wide(x, b)
        big = pl.assemble(big, b, [0, 0])
"""


COVERED = """\
import nanopass.dsl as pl


@pl.program
class Covered:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def wide(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, src: pl.Tensor[[32, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        big = pl.create_tensor([32, 16], dtype=pl.FP32)
        a = pl.create_tensor([16, 16], dtype=pl.FP32)
        a = self.step(x, a)
        big = pl.assemble(big, a, [0, 0])
        b = pl.create_tensor([16, 16], dtype=pl.FP32)
        b = self.step(x, b)
        big = pl.assemble(big, b, [0, 0])
        c = pl.create_tensor([16, 16], dtype=pl.FP32)
        c = self.step(x, c)
        big = pl.assemble(big, c, [16, 0])
        y = self.acc(big, y)
        return y
"""
