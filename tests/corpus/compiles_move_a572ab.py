# fuzz: fence_array_carry: move: move 'y, t = pl.submit(self.work, x, y, deps=[ids])'; drop: drop 'for phase, (ids,) in pl.range(8, init_values=(first,)):'
# expect: compiles
import nanopass.dsl as pl

@pl.program
class FenceArrayCarry:

    @pl.function(type=pl.FunctionType.AIV)
    def work(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_carry(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            first = pl.array.create(8, pl.TASK_ID)
        return y
