"""An integer literal past ``long``'s range prints with ``UL``: bare, g++ warns ("integer constant
is so large that it is unsigned") and types it ``__int128``, so `a1 - 18446744073709551614 >= a1 - 2`
of a UINT64 ``a1`` compared as signed 128-bit numbers where tools/cvalues.py (and C's unsigned
literal) mean ``uint64_t`` (found by the scalars grammar, seed 4202)."""

from __future__ import annotations

import textwrap

import pytest

from conftest import compile_check, load_program

from nanopass.api import result_from_stages, run_pipeline

SOURCE = '''
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, t: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], s0: pl.Scalar[pl.UINT64]) -> pl.Tensor[[4, 4], pl.FP32]:
        return t

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, y: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], a: pl.Scalar[pl.UINT64]) -> pl.Tensor[[4, 4], pl.FP32]:
        {statement}
        return y
'''


@pytest.mark.parametrize("statement, expected", [
    ("y = self.k(y, a - 18446744073709551614)", "a - 18446744073709551614UL"),
    ("y = self.k(y, 18446744073709551614 - a)", "18446744073709551614UL - a"),
    ("y = self.k(y, 18446744073709551615)", "18446744073709551615UL"),
    ("if a - 18446744073709551614 >= a - 2:\n            y = self.k(y, a)", "a - 18446744073709551614UL >= a - 2"),
    ("y = self.k(y, a + 9223372036854775807)", "a + 9223372036854775807)"),
])
def test_a_literal_past_long_s_range_is_unsigned_long(tmp_path, statement, expected):
    path = tmp_path / "prog.py"
    path.write_text(textwrap.dedent(SOURCE).format(statement=statement))
    code = result_from_stages(run_pipeline(load_program(path))).code
    assert expected in code, code
    compile_check(code, tmp_path)
