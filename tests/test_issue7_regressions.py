"""Compiler bugs found by the issue-7 semantic checks, each with the smallest program showing it."""

from __future__ import annotations

from conftest import compile_check, load_program

import nanopass

UNUSED_TID = '''
import nanopass.dsl as pl

@pl.program
class UnusedTid:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            y, tid = pl.submit(self.k, a, y)
        return y
'''


def test_a_submit_whose_task_id_is_never_used_captures_no_outputs(tmp_path):
    # lower_to_emission captured `TaskOutputTensors task_0_outs = ...` for every pl.submit, and
    # g++ -Wall -Werror rejects the unused variable.
    path = tmp_path / "unused_tid.py"
    path.write_text(UNUSED_TID)
    code = nanopass.generate_orchestration(load_program(path)).code
    assert "    rt_submit_aiv_task(0, params_t0);" in code and "task_0_outs" not in code
    compile_check(code, tmp_path)
