# A scalar computed differently on each branch (implicit merge), then passed to a kernel in a
# loop; an elif chain on a scalar parameter.
import nanopass.dsl as pl


@pl.program
class ScalarPhi:
    @pl.function(type=pl.FunctionType.AIV)
    def axpy(self, x: pl.Tensor[[32, 32], pl.FP32], alpha: pl.Scalar[pl.FP32], rows: pl.Scalar[pl.INT64],
             acc: pl.InOut[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[32, 32], pl.FP32], acc: pl.InOut[pl.Tensor[[32, 32], pl.FP32]],
            mode: pl.Scalar[pl.INT64], gain: pl.Scalar[pl.FP32]) -> pl.Tensor[[32, 32], pl.FP32]:
        if mode == 0:
            rows = 8
        elif mode == 1:
            rows = 16
        else:
            rows = 32
        for i in pl.range(rows // 8):
            acc = self.axpy(x, gain * 0.5, rows - i, acc)
        return acc
