# reference-surface.md section 14: for (i, r) in pl.while_(init_values=(0, res)) with pl.cond(i < n)
# first in the body: a loop of unknown trip count (0 or more) whose condition reads a scalar carry.
# The body reads r (step) and writes it (step); when i == m it also writes tmp from r (a write
# under a condition), and tmp is read after the loop.
import nanopass.dsl as pl


@pl.program
class WhileLoop:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[8, 32], pl.FP32],
             dst: pl.InOut[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, src: pl.Tensor[[8, 32], pl.FP32],
             dst: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[8, 32], pl.FP32], res: pl.InOut[pl.Tensor[[8, 32], pl.FP32]],
            out: pl.Out[pl.Tensor[[8, 32], pl.FP32]], n: pl.Scalar[pl.INT64],
            m: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 32], pl.FP32]:
        tmp = pl.create_tensor([8, 32], dtype=pl.FP32)
        for (i, r) in pl.while_(init_values=(0, res)):
            pl.cond(i < n)
            r = self.step(x, r)
            if i == m:
                tmp = self.copy(r, tmp)
            i2, r2 = pl.yield_(i + 1, r)
        out = self.copy(tmp, out)
        return out
