"""A negation of a negative operand prints apart from it: ``-(-s)``, never ``--s``, which C++ reads
as a pre-decrement (tools/attack/found/45, 46, 51, 52: the task got s - 1, s itself changed, and an
expression's decrement did not compile)."""

from __future__ import annotations

import re
import textwrap

import pytest

from conftest import compile_check, load_program

from nanopass.api import result_from_stages, run_pipeline

HEAD = '''
import nanopass.dsl as pl

N = pl.dynamic("N")


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, t: pl.InOut[pl.Tensor[[4, N], pl.FP32]], s0: pl.Scalar[pl.INT64], f0: pl.Scalar[pl.FP32]) -> pl.Tensor[[4, N], pl.FP32]:
        return t

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, y: pl.InOut[pl.Tensor[[4, N], pl.FP32]], s: pl.Scalar[pl.INT64], f: pl.Scalar[pl.FP32]) -> pl.Tensor[[4, N], pl.FP32]:
'''

CASES = [
    ("y = self.k(y, -(-s), f)", "-(-s)"),
    ("y = self.k(y, -(-(s + 1)), f)", "-(-(s + 1))"),
    ("y = self.k(y, s, -(-f))", "-(-f)"),
    ("t = -(-s)\n        y = self.k(y, t, f)", "t = -(-s);"),
    ("y = self.k(y, -(-N), f)", "-(-N)"),
    ("y = self.k(y, -(~s), f)", "-~s"),
    ("y = self.k(y, s - (-s), f)", "s - -s"),
]


@pytest.mark.parametrize("statement, expected", CASES)
def test_a_negated_negative_operand_is_parenthesized(tmp_path, statement, expected):
    path = tmp_path / "neg.py"
    path.write_text(textwrap.dedent(HEAD) + f"        {statement}\n        return y\n")
    code = result_from_stages(run_pipeline(load_program(path))).code
    assert expected in code, code
    assert not re.search(r"--\s*[\w(]", code), code  # no decrement anywhere
    compile_check(code, tmp_path)
