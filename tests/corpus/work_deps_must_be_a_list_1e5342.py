# fuzz: fence_array_carry: swap: swap arguments 1 and 0 of 'pl.array.create(pl.TASK_ID, 8)'; module: module constant K_NEW = pl.Tensor[[16, 16], pl.FP32], used in orch_carry
# expect: 14:48: error: 'work' deps= must be a list of TaskId values
import nanopass.dsl as pl

@pl.program
class FenceArrayCarry:

    @pl.function(type=pl.FunctionType.AIV)
    def work(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_carry(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        y, t = pl.submit(self.work, x, y, deps=K_NEW)
