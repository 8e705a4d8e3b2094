# fuzz: manual_phases: move: move 'for phase in pl.range(N_PHASES):'
# expect: 18:13: error: TaskId 'prev_tid' is produced inside a scope and used after it; a TaskId does not outlive the scope that produces it
import nanopass.dsl as pl
N_PHASES = 3
N_BRANCHES = 4
TILE_M = 16

@pl.program
class ManualPhases:

    @pl.function(type=pl.FunctionType.AIV)
    def kernel_stripe(self, data: pl.Tensor[[256, 64], pl.FP32], row: pl.Scalar[pl.INT64], scale: pl.Scalar[pl.FP32], out: pl.InOut[pl.Tensor[[256, 64], pl.FP32]]) -> pl.Tensor[[256, 64], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_phases(self, data: pl.Tensor[[256, 64], pl.FP32], out: pl.InOut[pl.Tensor[[256, 64], pl.FP32]]) -> pl.Tensor[[256, 64], pl.FP32]:
        with pl.manual_scope():
            prev_tid = None
        for phase in pl.range(N_PHASES):
            for branch in pl.parallel(N_BRANCHES):
                row = (phase * N_BRANCHES + branch) * TILE_M
                out, prev_tid = pl.submit(self.kernel_stripe, data, row, 1.0, out, deps=[prev_tid])
        return out
