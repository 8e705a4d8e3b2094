# A kernel with two outputs (tuple result) carried through a loop with init_values, and a second
# kernel consuming both after the loop.
import nanopass.dsl as pl


@pl.program
class TwoOutputs:
    @pl.function(type=pl.FunctionType.AIV)
    def stats(self, x: pl.Tensor[[16, 64], pl.FP32], mx: pl.InOut[pl.Tensor[[16, 1], pl.FP32]],
              sm: pl.InOut[pl.Tensor[[16, 1], pl.FP32]]) -> tuple[pl.Tensor[[16, 1], pl.FP32], pl.Tensor[[16, 1], pl.FP32]]:
        return mx, sm

    @pl.function(type=pl.FunctionType.AIV)
    def normalize(self, x: pl.Tensor[[16, 64], pl.FP32], mx: pl.Tensor[[16, 1], pl.FP32],
                  sm: pl.Tensor[[16, 1], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def softmax(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.InOut[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        mx0 = pl.create_tensor([16, 1], dtype=pl.FP32, init_value=-1.0e30)
        sm0 = pl.create_tensor([16, 1], dtype=pl.FP32, init_value=0.0)
        for r in pl.range(4):
            rows = pl.slice(x, [16, 64], [r * 16, 0])
            mx0, sm0 = self.stats(rows, mx0, sm0)
            y_rows = pl.slice(y, [16, 64], [r * 16, 0])
            y_rows = self.normalize(rows, mx0, sm0, y_rows)
        return y
