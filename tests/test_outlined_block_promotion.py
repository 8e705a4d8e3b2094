"""A plain ``@pl.function`` (Opaque) holding an outlined block is the orchestration function
(reference-surface.md section 3: "An Opaque function that contains at least one outlined block is
promoted to Orchestration"): a ``with pl.cluster()`` block (its kernel calls outlined into one
Group kernel) and a ``for i in pl.spmd(...)`` region count, as ``with pl.at`` / ``with pl.spmd`` do.
Before, a function whose only block was one of these two was refused with "program has no
@pl.function(type=...Orchestration)"."""

from __future__ import annotations

import pytest

import nanopass
from conftest import load_program

KERNELS = '''
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIC)
    def qk(self, q: pl.Tensor[[16, 64], pl.FP16], k: pl.Tensor[[64, 16], pl.FP16],
           s: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        a: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Left] = pl.load(q, [0, 0], [16, 64])
        b: pl.Tile[[64, 16], pl.FP16, pl.MemorySpace.Right] = pl.load(k, [0, 0], [64, 16])
        c: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(a, b)
        s = pl.store(c, [0, 0], s)
        return s

    @pl.function(type=pl.FunctionType.AIV)
    def soft(self, s: pl.Tensor[[16, 16], pl.FP32],
             p: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(s, [0, 0], [16, 16])
        p = pl.store(pl.exp(t), [0, 0], p)
        return p

    @pl.function
    def main(self, q: pl.Tensor[[16, 64], pl.FP16], k: pl.Tensor[[64, 16], pl.FP16],
             p: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
'''

BODIES = {
    # the AIC and the AIV call of the block, one Group task (MixedKernels)
    "cluster": '''
        s = pl.create_tensor([16, 16], dtype=pl.FP32)
        with pl.cluster():
            s = self.qk(q, k, s)
            p = self.soft(s, p)
        return p
''',
    # the region outlined into a kernel launched on 2 blocks
    "for_spmd": '''
        for i in pl.spmd(2):
            t = pl.load(q, [0, 0], [16, 64])
            p = pl.store(pl.exp(pl.load(p, [0, 0], [16, 16])), [0, 0], p)
        return p
''',
}
EXPECTED = {"cluster": "rt_submit_task(mixed_0, params_t0);", "for_spmd": "params_t0.launch_spec.set_block_num(2);"}


@pytest.mark.parametrize("form", sorted(BODIES))
@pytest.mark.parametrize("no_exec", [False, True], ids=["imported", "no-exec"])
def test_a_plain_function_whose_only_block_is_outlined_is_the_orchestration_function(form, no_exec, tmp_path):
    path = tmp_path / f"{form}.py"
    path.write_text(KERNELS + BODIES[form])
    if no_exec:
        from nanopass.static_loader import load_programs_static

        [program] = load_programs_static(str(path))
    else:
        program = load_program(path)
    result = nanopass.generate_orchestration(program)
    assert result.code.startswith("// Orchestration Function: main\n")
    assert EXPECTED[form] in result.code
