# reference-surface.md section 5: inline functions calling inline functions, loops, a scalar argument expression, tuple results through temporaries
import nanopass.dsl as pl
N = 4

@pl.program
class InlineMore:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def scale(self, src: pl.Tensor[[16, 16], pl.FP32], f: pl.Scalar[pl.FP32], dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Inline)
    def swap(self, a: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], b: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        return b, a

    @pl.function(type=pl.FunctionType.Inline)
    def repeat(self, src: pl.Tensor[[16, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.range(n):
            acc = self.scale(src, 0.5, acc)
        return acc

    @pl.function(type=pl.FunctionType.Inline)
    def outer(self, src: pl.Tensor[[16, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]):
        tmp = pl.create_tensor([16, 16], dtype=pl.FP32)
        tmp = self.step(src, tmp)
        acc = self.repeat(tmp, acc, N)

    @pl.function(type=pl.FunctionType.Orchestration)
    def drive(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
              z: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], m: pl.Scalar[pl.INT64]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        self.outer(x, y)
        y = self.repeat(x, y, m + 1)
        y, z = self.swap(y, z)
        z = self.scale(y, 1.0, z)
        y = self.scale(z, 2.0, y)
        return y, z
