# reference-surface.md "Other behaviour" (a user dep leaving a compiler loop scope; the README's
# loop-task-ids row): a TaskId a loop of a manual scope assigns (bound to None before it, so a
# carry) is carried out of it, so `deps=[t]` after the loop waits for the task of the last
# iteration that ran (guarded: the loop may run no iteration, and t is then invalid). A name first
# bound inside the loop is not visible after it (every loop's scoping rule). Each iteration waits
# for the one before (deps=[t]): a manual scope orders only what the program says.
import nanopass.dsl as pl


@pl.program
class LoopTid:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, x: pl.Tensor[[16, 16], pl.FP32],
             y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def use(self, y: pl.Tensor[[16, 16], pl.FP32],
            z: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return z

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
             z: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            t = None
            for i in pl.range(n):
                y, t = pl.submit(self.step, x, y, deps=[t])
            z, u = pl.submit(self.use, y, z, deps=[t])
        return z
