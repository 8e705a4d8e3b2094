"""An assignment's annotation may compute a dimension from the function's variables or dynamic
dimensions, as the printed IR annotates a shape computed on the host (tools/attack/found/60); such
an annotation must then be the value's type itself (passes/frontend/type_reader.py, ``local_dims``)."""

from __future__ import annotations

import pytest
from conftest import load_program

from nanopass.api import generate_orchestration
from nanopass.errors import UserError

SOURCE = """import nanopass.dsl as pl

M = pl.dynamic("M")
N = pl.dynamic("N")


@pl.program
class Dims:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, t: pl.InOut[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        return t

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, y: pl.InOut[pl.Tensor[[M, N], pl.FP32]], g: pl.Scalar[pl.FP32]) -> pl.Tensor[[M, N], pl.FP32]:
        d: pl.Scalar[pl.INT64] = pl.tensor.dim(y, 1)
        e: pl.Scalar[pl.INT64] = d - 1
        v: pl.Tensor[[1, DIM], pl.FP32] = pl.tensor.slice(y, [1, SLICED], [0, 0])
        v = self.k(v)
        return y
"""


def compiled(dim: str, tmp_path, sliced: str = "d") -> str:
    path = tmp_path / "dims.py"
    path.write_text(SOURCE.replace("DIM", dim).replace("SLICED", sliced))
    return generate_orchestration(load_program(path)).code


@pytest.mark.parametrize("dim", ["d", "d - 1", "2 * e + 1", "(N + 1) // 2"])
def test_the_expression_that_computes_the_dimension_is_accepted(dim, tmp_path):
    code = compiled(dim, tmp_path, sliced=dim)
    assert "rt_submit_aiv_task" in code and "params_t0.add_inout(v);" in code


@pytest.mark.parametrize("dim, message", [
    ("e", r"type annotation of 'v' is pl.Tensor\[\[1, e\], pl.FP32\] but the value is pl.Tensor\[\[1, d\], pl.FP32\]"),
    ("g", "'g' is not a constant defined at module level"),
    ("h", "'h' is not a constant defined at module level"),
    ("d + 0", r"type annotation of 'v' is pl.Tensor\[\[1, d \+ 0\], pl.FP32\] but the value is pl.Tensor\[\[1, d\]"),
    ("(N + 1) // 2 - 1", r"type annotation of 'v' is pl.Tensor\[\[1, \(\(N \+ 1\) // 2\) - 1\], pl.FP32\] but the value is "
                         r"pl.Tensor\[\[1, d\], pl.FP32\]"),
])
def test_another_name_is_refused(dim, message, tmp_path):
    with pytest.raises(UserError, match=message) as e:
        compiled(dim, tmp_path)
    assert e.value.span is not None and e.value.span.line == 17
