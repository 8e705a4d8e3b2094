# class: refusal
# printed-scalars grammar (printed_scalars.py, `computed_types`), shrunk by hand: a slice whose shape is computed on the host (`d = pl.tensor.dim(y, 1)`) annotated with that shape, `v: pl.Tensor[[1, d], pl.FP32] = pl.tensor.slice(y, [1, d], [0, 0])`, as python_print annotates every assignment with its type: "'d' is not a constant defined at module level". The spec's examples show no such shape; without the annotation the program compiles and its values match
#
# found on land42 (d191156), fixed in session 23:
# nothing (fixed)
# pypto.program: Attack
import pypto.language as pl

M = pl.dynamic("M")
N = pl.dynamic("N")
P = pl.dynamic("P")
Q = pl.dynamic("Q")

@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def k0(t: pl.InOut[pl.Tensor[[P, Q], pl.FP32]], s0: pl.Scalar[pl.INT64]) -> pl.Tensor[[P, Q], pl.FP32]:
        return t
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orch(self, x: pl.Tensor[[M, 4], pl.FP32], y: pl.InOut[pl.Tensor[[M, N], pl.FP32]], ri: pl.InOut[pl.Tensor[[16], pl.INT64]], rf: pl.InOut[pl.Tensor[[16], pl.FP32]], s: pl.Scalar[pl.INT64]) -> pl.Tensor[[M, N], pl.FP32]:
        d: pl.Scalar[pl.INT64] = pl.tensor.dim(y, 1)
        v: pl.Tensor[[1, d], pl.FP32] = pl.tensor.slice(y, [1, d], [0, 0])
        v: pl.Tensor[[1, d], pl.FP32] = self.k0(v, s)
        return y
