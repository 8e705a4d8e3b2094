# A tile computed into a scratch tensor, then assembled into row blocks of the output; a second
# kernel reads the assembled output.
import nanopass.dsl as pl


@pl.program
class AssembleRows:
    @pl.function(type=pl.FunctionType.AIV)
    def block(self, src: pl.Tensor[[8, 32], pl.FP32],
              dst: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def reduce(self, src: pl.Tensor[[32, 32], pl.FP32],
               dst: pl.Out[pl.Tensor[[1, 32], pl.FP32]]) -> pl.Tensor[[1, 32], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[32, 32], pl.FP32], full: pl.InOut[pl.Tensor[[32, 32], pl.FP32]],
            total: pl.Out[pl.Tensor[[1, 32], pl.FP32]]) -> pl.Tensor[[1, 32], pl.FP32]:
        for i in pl.range(4):
            part = pl.create_tensor([8, 32], dtype=pl.FP32)
            part = self.block(pl.slice(x, [8, 32], [i * 8, 0]), part)
            full = pl.assemble(full, part, [i * 8, 0])
        total = self.reduce(full, total)
        return total
