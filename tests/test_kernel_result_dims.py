"""A kernel's dimension symbols name its arguments' dimensions, call by call: the result of a
call has the argument's shape where the kernel's declared result names a symbol its parameters
bind (passes/frontend/ops/submits.py, ``result_types``; tools/attack/found/61)."""

from __future__ import annotations

import pytest
from conftest import load_program

from nanopass.api import generate_orchestration
from nanopass.errors import UserError

HEAD = """import nanopass.dsl as pl

M = pl.dynamic("M")
N = pl.dynamic("N")
P = pl.dynamic("P")
Q = pl.dynamic("Q")


@pl.program
class Dims:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, t: pl.InOut[pl.Tensor[[P, Q], pl.FP32]]) -> pl.Tensor[[P, Q], pl.FP32]:
        return t

    @pl.function(type=pl.FunctionType.AIV)
    def use(self, t: pl.Tensor[[P, Q], pl.FP32], s: pl.Scalar[pl.INT64]) -> None:
        return None

"""


def compiled(body: str, params: str, returns: str, tmp_path) -> str:
    path = tmp_path / "dims.py"
    path.write_text(HEAD + f"    @pl.function(type=pl.FunctionType.Orchestration)\n"
                           f"    def orch(self, {params}) -> {returns}:\n" + body)
    return generate_orchestration(load_program(path)).code


@pytest.mark.parametrize("annotated", [False, True])
def test_a_new_name_for_the_result_has_the_arguments_symbols(annotated, tmp_path):
    bind = "z: pl.Tensor[[M, N], pl.FP32] = " if annotated else "z = "
    code = compiled(f"        {bind}self.k(y)\n        return z\n",
                    "y: pl.InOut[pl.Tensor[[M, N], pl.FP32]]", "pl.Tensor[[M, N], pl.FP32]", tmp_path)
    assert "rt_submit_aiv_task" in code


def test_a_result_of_constant_argument_shape_reads_its_dims_as_constants(tmp_path):
    code = compiled("        z = self.k(y)\n        d = pl.tensor.dim(z, 1)\n        self.use(z, d)\n        return y\n",
                    "y: pl.InOut[pl.Tensor[[4, 8], pl.FP32]]", "pl.Tensor[[4, 8], pl.FP32]", tmp_path)
    assert "int64_t d = 8;" in code, code


def test_the_declared_type_still_checks_the_result(tmp_path):
    with pytest.raises(UserError, match="returns a pl.Tensor\\[\\[4, 8\\], pl.FP32\\] where its return type "
                                        "declares pl.Tensor\\[\\[8, 4\\], pl.FP32\\]"):
        compiled("        z = self.k(y)\n        return z\n",
                 "y: pl.InOut[pl.Tensor[[4, 8], pl.FP32]], w: pl.Out[pl.Tensor[[8, 4], pl.FP32]]",
                 "pl.Tensor[[8, 4], pl.FP32]", tmp_path)
