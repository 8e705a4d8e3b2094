# pl.parallel over independent row blocks of an output, each block a slice; then a reduction
# over the whole output after the loop.
import nanopass.dsl as pl


@pl.program
class ParallelRows:
    @pl.function(type=pl.FunctionType.AIV)
    def relu(self, src: pl.Tensor[[16, 64], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def rowsum(self, src: pl.Tensor[[64, 64], pl.FP32],
               dst: pl.Out[pl.Tensor[[64, 1], pl.FP32]]) -> pl.Tensor[[64, 1], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[64, 64], pl.FP32], sums: pl.Out[pl.Tensor[[64, 1], pl.FP32]]) -> pl.Tensor[[64, 1], pl.FP32]:
        act = pl.create_tensor([64, 64], dtype=pl.FP32)
        for r in pl.parallel(4):
            src = pl.slice(x, [16, 64], [r * 16, 0])
            dst = pl.slice(act, [16, 64], [r * 16, 0])
            dst = self.relu(src, dst)
        sums = self.rowsum(act, sums)
        return sums
