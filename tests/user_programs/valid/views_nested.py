# Views of views and a view written as a call argument: a slice of a reshape, a transposed slice,
# a clamped window whose offset is a loop index.
import nanopass.dsl as pl


@pl.program
class ViewsNested:
    @pl.function(type=pl.FunctionType.AIV)
    def touch(self, src: pl.Tensor[[4, 16], pl.FP32],
              dst: pl.InOut[pl.Tensor[[4, 16], pl.FP32]]) -> pl.Tensor[[4, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, a: pl.Tensor[[8, 32], pl.FP32], b: pl.Tensor[[16, 4], pl.FP32],
            c: pl.Tensor[[10, 16], pl.FP32],
            out: pl.InOut[pl.Tensor[[4, 16], pl.FP32]]) -> pl.Tensor[[4, 16], pl.FP32]:
        flat = pl.reshape(a, [16, 16])
        top = pl.slice(flat, [4, 16], [4, 0])
        out = self.touch(top, out)
        out = self.touch(pl.transpose(b, 0, 1), out)
        for i in pl.range(3):
            out = self.touch(pl.slice(c, [4, 16], [i * 4, 0], clamp=True), out)
        return out
