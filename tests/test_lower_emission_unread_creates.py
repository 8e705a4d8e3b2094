"""A tensor ``pl.create_tensor`` makes that the C++ never reads is not made (``lower_Alloc``): a
return emits nothing, so a create only the function returns (under an output parameter's name it
cannot be placed in, `check_output_params_written` warns) left ``const Tensor& t1 =
alloc_0.get_ref(0);`` unused, which g++ -Wall -Werror refuses (unused-variable), and the
``alloc_tensors`` result alone would be set but not used. Found by the attack tester's surface
generator (seed 7003, program 1669). A batch keeps the creates the C++ reads, renumbered."""

from __future__ import annotations

from conftest import compile_check

import nanopass

PROGRAM = '''\
import nanopass.dsl as pl


@pl.program
class Creates:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, src: pl.Tensor[[8, 4], pl.FP32], dst: pl.Out[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
BODY
        return a
'''


def test_a_create_only_returned_is_not_made(tmp_path):
    body = '''\
        t1 = pl.create_tensor([8, 4], dtype=pl.FP32)
        o3 = t1
        t1 = a
        a = o3
'''
    code = nanopass.compile_text(PROGRAM.replace("BODY\n", body)).code
    assert "alloc_tensors" not in code and "t1_ci" not in code and "get_ref" not in code
    compile_check(code, tmp_path)  # (before: "unused variable 't1'")


def test_a_batch_keeps_the_creates_the_cpp_reads(tmp_path):
    # u is written by a task and so read by the C++; t only returned: the batch makes u alone
    body = '''\
        t = pl.create_tensor([8, 4], dtype=pl.FP32)
        u = pl.create_tensor([8, 4], dtype=pl.FP32)
        u = self.k(x, u)
        a = self.k(u, a)
        a = t
'''
    code = nanopass.compile_text(PROGRAM.replace("BODY\n", body)).code
    assert "TaskOutputTensors alloc_0 = alloc_tensors(u_ci);" in code
    assert "const Tensor& u = alloc_0.get_ref(0);" in code
    assert "t_ci" not in code
    compile_check(code, tmp_path)


def test_a_scalar_read_only_by_an_unmade_create_is_not_declared(tmp_path):
    # the create's extent m is read only where the create is made: nowhere
    program = PROGRAM.replace("a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]])", "a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], m: pl.Scalar[pl.INT64])")
    body = '''\
        t1 = pl.create_tensor([m, 4], dtype=pl.FP32, init_value=1.0)
        a = t1
'''
    code = nanopass.compile_text(program.replace("BODY\n", body)).code
    assert "alloc_tensors" not in code and "int64_t m" not in code
    compile_check(code, tmp_path)  # (with the extents read wherever the create stood: "unused variable 'm'")
