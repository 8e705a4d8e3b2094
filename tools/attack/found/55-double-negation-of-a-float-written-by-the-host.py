# class: value host write
# scalars grammar (--seed 42, scalars420000539, shrunk by shrink.py): `pl.tensor.write(rf, [1], -(-g))` with g: FP32 = 0.001 writes g - 1.0 (`--g`, 45's decrement of a float), and g stays decremented for the task after it
#
# found on land41 (2ba6cdd), fixed in session 22:
# nothing (fixed)
import nanopass.dsl as pl

M = pl.dynamic("M")
N = pl.dynamic("N")
P = pl.dynamic("P")
Q = pl.dynamic("Q")


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[M, 4], pl.FP32], y: pl.InOut[pl.Tensor[[M, N], pl.FP32]], ri: pl.InOut[pl.Tensor[[16], pl.INT64]], rf: pl.InOut[pl.Tensor[[16], pl.FP32]], g: pl.Scalar[pl.FP32]) -> pl.Tensor[[M, N], pl.FP32]:
        pl.tensor.write(rf, [1], -(-g))
        return y
