# fuzz: loop_scalar: replace: replace 'pl' by 'src'; replace: replace 'self.kernel_axpy(x, acc, alpha)' by 'self.kernel_axpy(a)'
# expect: 14:15: error: kernel 'kernel_axpy' expects 3 argument(s), got 1
import nanopass.dsl as pl

@pl.program
class LoopScalar:

    @pl.function(type=pl.FunctionType.AIV)
    def kernel_axpy(self, x: pl.Tensor[[64, 64], pl.FP32], acc: pl.InOut[pl.Tensor[[64, 64], pl.FP32]], alpha: pl.Scalar[pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_loop(self, steps: pl.Scalar[pl.INT64]) -> pl.Tensor[[64, 64], pl.FP32]:
        acc = self.kernel_axpy(a)
