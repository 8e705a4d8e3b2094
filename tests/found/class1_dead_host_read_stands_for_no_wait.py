# issue 21, class 1: step reads x, a host read of y (step's output) follows whose value nothing
# uses, then a task writes x. runtime_order took the read for a wait on step (get_tensor_data
# waits for y's producer and blocks the thread), so drop_implied_dependencies dropped the writer's
# edge on step; remove_dead_values then removed the read, and nothing ordered the write after
# step's read of x. runtime_order now counts only the host reads remove_dead_values keeps.
# Found by hand (branch tester23, the lean passes' host waits against runtime-api.md section 11).
# check: n=1
import nanopass.dsl as pl


@pl.program
class Found:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(x, [0, 0], [16, 16])
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], y)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        z: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.step(x, y)
        h = pl.tensor.read(y, [0, 0])
        x = self.step(z, x)
        return x
