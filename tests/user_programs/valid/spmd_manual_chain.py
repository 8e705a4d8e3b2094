# SPMD launches in a manual scope: each launch of a loop waits for the one before; a plain task
# after the scope reads the result.
import nanopass.dsl as pl


@pl.program
class SpmdManual:
    @pl.function(type=pl.FunctionType.AIV)
    def blocks(self, src: pl.Tensor[[64, 32], pl.FP32], k: pl.Scalar[pl.INT64],
               dst: pl.InOut[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def finish(self, src: pl.Tensor[[64, 32], pl.FP32],
               dst: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[64, 32], pl.FP32], acc: pl.InOut[pl.Tensor[[64, 32], pl.FP32]],
            out: pl.Out[pl.Tensor[[64, 32], pl.FP32]], cores: pl.Scalar[pl.INT32]) -> pl.Tensor[[64, 32], pl.FP32]:
        with pl.manual_scope():
            g = None
            for k in pl.range(3):
                acc, g = pl.spmd_submit(self.blocks, x, k, acc, core_num=cores, deps=[g])
        out = self.finish(acc, out)
        return out
