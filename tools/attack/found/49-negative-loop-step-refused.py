# class: refusal
# scalars grammar (--seed 41): `for i in pl.range(3, 0, -1)` is refused ('a loop step must be positive'); dsl.md allows `pl.range(start, stop, step)` and says nothing of the step's sign (Python's range counts down). The reference's `i < stop` loop form could not run it; a refusal is better than its zero trips, but the spec does not rule the program out
#
# found on land41 (2ba6cdd), ruled out by docs/semantics.md in session 22:
# invalid: Invalid: a loop step not positive
import nanopass.dsl as pl

M = pl.dynamic("M")
N = pl.dynamic("N")
P = pl.dynamic("P")
Q = pl.dynamic("Q")


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def k0(self, t: pl.InOut[pl.Tensor[[P, Q], pl.FP32]], s0: pl.Scalar[pl.INT64]) -> pl.Tensor[[P, Q], pl.FP32]:
        return t

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[M, 4], pl.FP32], y: pl.InOut[pl.Tensor[[M, N], pl.FP32]], ri: pl.InOut[pl.Tensor[[16], pl.INT64]], rf: pl.InOut[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[M, N], pl.FP32]:
        for i in pl.range(3, 0, -1):
            y = self.k0(y, i)
        return y
