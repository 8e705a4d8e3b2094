"""``r: T = self.k(...)``: the annotation of a name a kernel call (or an inline function's call, or
an operation that binds its target, ``pl.system.task_dummy``) binds is checked against the type the
call gives it, as ``r: T = pl.submit(...)``'s is (passes/frontend/statements.py,
``_annotated_result``); a plain assignment's annotation was checked already (``check_annotation``)."""

from __future__ import annotations

import pytest
from conftest import load_program

from nanopass.api import generate_orchestration
from nanopass.errors import UserError

SOURCE = """import nanopass.dsl as pl

N = pl.dynamic("N")


@pl.program
class Annotated:
    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def row(self, t: pl.InOut[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        return t

    @pl.function(type=pl.FunctionType.Inline)
    def twice(self, src: pl.Tensor[[16, 16], pl.FP32],
              dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        dst = self.fill(src, dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[4, N], pl.FP32]],
             mid: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        d: pl.Scalar[pl.INT64] = pl.tensor.dim(y, 1)
        v: pl.Tensor[[1, d], pl.FP32] = pl.tensor.slice(y, [1, d], [0, 0])
        STATEMENT
        out = self.fill(x, out)
        return out
"""


def compiled(statement: str, tmp_path) -> str:
    path = tmp_path / "annotated.py"
    path.write_text(SOURCE.replace("STATEMENT", statement))
    return generate_orchestration(load_program(path)).code


@pytest.mark.parametrize("statement", [
    "r: pl.Tensor[[16, 16], pl.FP32] = self.fill(x, mid)",
    "r: pl.Tensor[[16, 16], pl.FP32] = self.twice(x, mid)",
    "w: pl.Tensor[[1, d], pl.FP32] = self.row(v)",
    "r: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)",
    "t: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[])",
    "_: pl.Tensor[[16, 16], pl.FP32] = self.fill(x, mid)",
    "_: pl.Tensor[[16, 16], pl.FP32] = self.twice(x, mid)",
], ids=["kernel", "inline", "dynamic", "create", "task_dummy", "discarded", "discarded-inline"])
def test_the_type_the_call_gives_is_accepted(statement, tmp_path):
    assert "aicpu_orchestration_entry" in compiled(statement, tmp_path)


ANNOTATION = "type annotation of 'r' is 'pl.Tensor[[4, 4], pl.FP32]', but 'r' holds "


@pytest.mark.parametrize("statement, message, col", [
    ("r: pl.Tensor[[4, 4], pl.FP32] = self.fill(x, mid)",
     ANNOTATION + "the result of kernel 'fill', pl.Tensor[[16, 16], pl.FP32]", 11),
    ("r: pl.Tensor[[16, 16], pl.FP16] = self.fill(x, mid)",
     "but 'r' holds the result of kernel 'fill', pl.Tensor[[16, 16], pl.FP32]", 11),
    ("r: pl.Scalar[pl.INT64] = self.fill(x, mid)",
     "but 'r' holds the result of kernel 'fill', pl.Tensor[[16, 16], pl.FP32]", 11),
    ("r: pl.Tensor[[4, 4], pl.FP32] = self.twice(x, mid)",
     ANNOTATION + "the result of inline function 'twice', pl.Tensor[[16, 16], pl.FP32]", 11),
    ("w: pl.Tensor[[1, d], pl.FP16] = self.row(v)",
     "but 'w' holds the result of kernel 'row', pl.Tensor[[1, d], pl.FP32]", 11),
    ("r: pl.Tensor[[4, 4], pl.FP32] = pl.system.task_dummy(deps=[])",
     "type annotation of 'r' is pl.Tensor[[4, 4], pl.FP32] but the value is pl.Scalar[pl.TASK_ID]", 8),
    ("r: pl.Tensor[[16, 16], pl.FP32] = self.fill(x, mid, out)", "kernel 'fill' expects 2 argument(s), got 3", 42),
    ("r: pl.Tensor[[4, 4], pl.FP32] = x",
     "type annotation of 'r' is pl.Tensor[[4, 4], pl.FP32] but the value is pl.Tensor[[16, 16], pl.FP32]", 8),
    ("r: pl.Tensor[[16, 16], pl.FP16] = pl.create_tensor([16, 16], dtype=pl.FP32)",
     "type annotation of 'r' is pl.Tensor[[16, 16], pl.FP16] but the value is pl.Tensor[[16, 16], pl.FP32]", 8),
], ids=["kernel-shape", "kernel-dtype", "kernel-scalar", "inline", "dynamic", "task_dummy", "arity", "plain",
        "create"])
def test_another_type_is_refused_at_the_annotation(statement, message, col, tmp_path):
    with pytest.raises(UserError) as e:
        compiled(statement, tmp_path)
    assert message in str(e.value)
    assert (e.value.span.line, e.value.span.col) == (29, col)  # (col: from 0)
