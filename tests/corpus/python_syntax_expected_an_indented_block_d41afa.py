# fuzz: fence_array_carry: indent: split line 23
# expect: 24:32: error: Python syntax error: expected an indented block after 'with' statement on line 24
# No phase fence when the array is a carry of the loop (pl.yield_ hands the next phase's ids
# back): the consumers must see each phase's array, not one taken before the loop.
import nanopass.dsl as pl


@pl.program
class FenceArrayCarry:
    @pl.function(type=pl.FunctionType.AIV)
    def work(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_carry(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
