# A manual scope of phases: each phase a parallel fan of branches, each branch waiting for the
# task of the same branch in the phase before (an array carry of TaskIds).
import nanopass.dsl as pl


@pl.program
class ManualFan:
    @pl.function(type=pl.FunctionType.AIV)
    def stripe(self, data: pl.Tensor[[128, 64], pl.FP32], row: pl.Scalar[pl.INT64],
               out: pl.InOut[pl.Tensor[[128, 64], pl.FP32]]) -> pl.Tensor[[128, 64], pl.FP32]:
        t = pl.load(data, [row, 0], [16, 64])
        out = pl.store(t, [row, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def phases(self, data: pl.Tensor[[128, 64], pl.FP32],
               out: pl.InOut[pl.Tensor[[128, 64], pl.FP32]]) -> pl.Tensor[[128, 64], pl.FP32]:
        with pl.manual_scope():
            prev = None
            for phase in pl.range(3):
                for branch in pl.parallel(4):
                    out, prev = pl.submit(self.stripe, data, (phase * 4 + branch) * 16, out, deps=[prev])
        return out
