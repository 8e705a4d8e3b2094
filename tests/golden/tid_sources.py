# Every TaskId source in a manual scope: a fresh producer (unguarded), a None seed, a scalar loop
# carry, an array slot snapshot taken before the slot is overwritten, a whole TaskId array, a
# TaskId merged by an if, and dummy barriers with and without dependencies. Every source but a
# fresh producer may hold PTO2TaskId::invalid() and is inserted under an is_valid() guard.
import nanopass.dsl as pl


@pl.program
class TidSources:
    @pl.function(type=pl.FunctionType.AIV)
    def step(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tids(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            seed = None
            y, first = pl.submit(self.step, x, y, deps=[seed])
            y, second = pl.submit(self.step, x, y, deps=[first])
            tids = pl.array.create(2, pl.TASK_ID)
            tids[0] = first
            prev = second
            for i in pl.range(n):
                y, prev = pl.submit(self.step, x, y, deps=[prev])
            snap = tids[0]
            tids[0] = prev
            y, third = pl.submit(self.step, x, y, deps=[snap, tids[1]])
            y, fourth = pl.submit(self.step, x, y, deps=[tids])
            if n > 3:
                y, chosen = pl.submit(self.step, x, y, deps=[third])
            else:
                chosen = fourth
            barrier = pl.system.task_dummy(deps=[chosen, fourth])
            empty = pl.system.task_dummy(deps=[])
            y, last = pl.submit(self.step, x, y, deps=[barrier, empty])
        return y
