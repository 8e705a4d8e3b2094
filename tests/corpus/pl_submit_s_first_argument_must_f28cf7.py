# fuzz: fence_array_updated: swap: swap arguments 0 and 1 of 'pl.submit(x, self.work, y)'
# expect: 10:16: error: pl.submit's first argument must be a kernel: pl.submit(self.k, ...)
import nanopass.dsl as pl

@pl.program
class FenceArrayUpdated:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_updated(self) -> pl.Tensor[[16, 16], pl.FP32]:
        y, t = pl.submit(x, self.work, y)
