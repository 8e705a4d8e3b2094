"""A program name that C++ reserves or a header of the generated file defines as a macro (``new``,
``errno``, ``EOF``, ``INT32_MAX``, ``PTO2_ERROR_NONE``, ...) is renamed in the C++, a scalar
parameter's and a dynamic dimension's too: the preprocessor would replace it
(tools/attack/found/53: ``int32_t errno = a + 1;`` did not compile)."""

from __future__ import annotations

import re
import textwrap

import pytest

from conftest import compile_check, load_program

from nanopass.api import result_from_stages, run_pipeline
from nanopass.passes.naming import HEADER_MACROS, RESERVED

SOURCE = '''
import nanopass.dsl as pl

{name} = pl.dynamic("{name}")


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, t: pl.InOut[pl.Tensor[[4, {name}], pl.FP32]], s0: pl.Scalar[pl.INT32]) -> pl.Tensor[[4, {name}], pl.FP32]:
        return t

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, y: pl.InOut[pl.Tensor[[4, {name}], pl.FP32]], {name}_p: pl.Scalar[pl.INT32]) -> pl.Tensor[[4, {name}], pl.FP32]:
        {name}_l = {name}_p + 1
        y = self.k(y, {name}_l)
        return y
'''

NAMES = ["new", "delete", "errno", "EOF", "INT32_MAX", "UINT8_C", "SEEK_SET", "stdout", "PTO2_ERROR_NONE", "LOG_INFO_V3", "EINVAL"]


@pytest.mark.parametrize("name", NAMES)
def test_a_name_a_header_defines_as_a_macro_is_renamed_and_compiles(tmp_path, name):
    # the dynamic dim is the name itself; the parameter and the local are ``{name}_p``/``{name}_l``,
    # renamed to the name by the source below
    source = textwrap.dedent(SOURCE).format(name=name)
    source = source.replace(f"{name}_p", name + "X").replace(f"{name}_l", "v")
    path = tmp_path / "prog.py"
    path.write_text(source)
    code = result_from_stages(run_pipeline(load_program(path))).code
    body = code.split("aicpu_orchestration_entry", 1)[1]
    assert not re.search(rf"\b{name}\b", body), body  # every use renamed
    compile_check(code, tmp_path)


def test_the_scalar_named_like_a_macro_is_renamed(tmp_path):
    source = textwrap.dedent(SOURCE).format(name="N").replace("N_l", "errno").replace("N_p", "EOF")
    path = tmp_path / "prog.py"
    path.write_text(source)
    code = result_from_stages(run_pipeline(load_program(path))).code
    assert "int32_t errno_1 = EOF_1 + 1;" in code, code
    assert not re.search(r"\b(errno|EOF)\b", code.split("aicpu_orchestration_entry", 1)[1]), code
    compile_check(code, tmp_path)


def test_every_header_macro_is_reserved():
    assert HEADER_MACROS <= RESERVED
    assert {"errno", "EOF", "INT64_MIN", "UINT_LEAST16_MAX", "INT_FAST8_MIN", "LOG_INFO_V9"} <= HEADER_MACROS


@pytest.mark.parametrize("name", ["union", "errno", "orch_args", "Tensor"])
def test_a_scalar_parameter_so_named_is_renamed_where_an_expression_reads_it(tmp_path, name):
    """tools/attack/found/57: only the parameter's declaration was renamed, not its reads."""
    source = textwrap.dedent(SOURCE).format(name="N").replace("N_p", name)
    source = source.replace(f"N_l = {name} + 1\n        y = self.k(y, N_l)", f"y = self.k(y, {name} + 1)")
    path = tmp_path / "prog.py"
    path.write_text(source)
    code = result_from_stages(run_pipeline(load_program(path))).code
    assert f"add_scalar((uint64_t)({name}_1 + 1));" in code, code
    compile_check(code, tmp_path)
