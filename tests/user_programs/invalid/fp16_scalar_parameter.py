# An FP16 scalar parameter of the orchestration function (no host C++ type).
# expect: 20:13: error: of dtype FP16 cannot be passed to an orchestration function
# where: the parameter
import nanopass.dsl as pl


@pl.program
class MixedDtypes:
    @pl.function(type=pl.FunctionType.AIV)
    def quant(self, x: pl.Tensor[[32, 32], pl.BF16], scale: pl.Scalar[pl.FP16], on: pl.Scalar[pl.BOOL],
              q: pl.Out[pl.Tensor[[32, 32], pl.INT8]]) -> pl.Tensor[[32, 32], pl.INT8]:
        return q

    @pl.function(type=pl.FunctionType.AIV)
    def dequant(self, q: pl.Tensor[[32, 32], pl.INT8], y: pl.InOut[pl.Tensor[[32, 32], pl.BF16]]) -> pl.Tensor[[32, 32], pl.BF16]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[32, 32], pl.BF16], y: pl.InOut[pl.Tensor[[32, 32], pl.BF16]],
            scale: pl.Scalar[pl.FP16], on: pl.Scalar[pl.BOOL], reps: pl.Scalar[pl.INT32]) -> pl.Tensor[[32, 32], pl.BF16]:
        q = pl.tensor.create([32, 32], dtype=pl.INT8)
        for i in pl.range(reps + 1):
            q = self.quant(x, scale, on, q)
            y = self.dequant(q, y)
        return y
