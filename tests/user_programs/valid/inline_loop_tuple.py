# Inline functions calling inline functions: one with a loop over a scalar argument expression,
# one returning a tuple; the orchestration function returns both tensors.
import nanopass.dsl as pl


@pl.program
class InlineLoopTuple:
    @pl.function(type=pl.FunctionType.AIV)
    def scale(self, src: pl.Tensor[[16, 16], pl.FP32], f: pl.Scalar[pl.FP32],
              dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(pl.muls(t, f), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Inline)
    def repeat(self, src: pl.Tensor[[16, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
               times: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.range(times):
            acc = self.scale(src, 0.5, acc)
        return acc

    @pl.function(type=pl.FunctionType.Inline)
    def both(self, src: pl.Tensor[[16, 16], pl.FP32], a: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
             b: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], times: pl.Scalar[pl.INT64]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        a = self.repeat(src, a, times)
        b = self.repeat(a, b, times + 1)
        return a, b

    @pl.function(type=pl.FunctionType.Orchestration)
    def drive(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
              z: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], m: pl.Scalar[pl.INT64]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        y, z = self.both(x, y, z, m)
        return y, z
