"""Scalars the host C++ cannot hold or count with are refused at the call or loop, located:
an argument of a kernel's FP16 / BF16 scalar parameter (the C++ passed a literal's double bits or a
float's 32 bits; the checker's interpreter stopped on an internal error) and a loop step of 0 or
less, with the counting-up rewrite as the hint (docs/semantics.md, "Semantic choices")."""

from __future__ import annotations

import textwrap

import pytest

from conftest import load_program

from nanopass.api import result_from_stages, run_pipeline
from nanopass.errors import UserError

SOURCE = '''
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, t: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], h0: pl.Scalar[pl.{dtype}]) -> pl.Tensor[[4, 4], pl.FP32]:
        return t

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, y: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], f: pl.Scalar[pl.FP32], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[4, 4], pl.FP32]:
        {statement}
        return y
'''


def compiled(tmp_path, dtype: str, statement: str):
    path = tmp_path / "prog.py"
    path.write_text(textwrap.dedent(SOURCE).format(dtype=dtype, statement=statement))
    return result_from_stages(run_pipeline(load_program(path))).code


@pytest.mark.parametrize("dtype", ["FP16", "BF16"])
@pytest.mark.parametrize("argument", ["1.5", "f", "2"])
def test_an_argument_of_a_16_bit_float_kernel_scalar_is_refused_at_the_argument(tmp_path, dtype, argument):
    with pytest.raises(UserError) as info:
        compiled(tmp_path, dtype, f"y = self.k(y, {argument})")
    text = str(info.value)
    assert "prog.py:13:23" in text, text
    assert f"is a pl.Scalar[pl.{dtype}]: the host C++ has no {dtype} type to pass a scalar in" in text, text


@pytest.mark.parametrize("dtype, argument, slot", [("FP32", "1.5", "to_u64(1.5f)"), ("FP32", "f", "to_u64(f)"),
                                                  ("INT16", "n", "(uint64_t)n"), ("FP64", "1.5", "to_u64(1.5)")])
def test_a_scalar_the_host_holds_still_passes(tmp_path, dtype, argument, slot):
    code = compiled(tmp_path, dtype, f"y = self.k(y, {argument})")
    assert f"add_scalar({slot});" in code, code


@pytest.mark.parametrize("step", ["0", "-1"])
def test_a_loop_step_not_positive_is_refused_with_the_counting_up_rewrite(tmp_path, step):
    with pytest.raises(UserError) as info:
        compiled(tmp_path, "FP32", f"for i in pl.range(3, 0, {step}):\n            y = self.k(y, 1.0)")
    text = str(info.value)
    assert "prog.py:13:33" in text and "a loop step must be positive" in text, text
    assert "i = n - 1 - j" in info.value.hint, info.value.hint
