# fuzz: array_carry_across_scope: duplicate: duplicate 'with pl.manual_scope():'
# expect: 21:88: error: task dependency deps=[prev] cannot be honored: its TaskId is produced inside a scope that has already closed here, so the ordering edge would be lost
import nanopass.dsl as pl

@pl.program
class ArrayCarryAcrossScope:

    @pl.function(type=pl.FunctionType.AIV)
    def stripe(self, data: pl.Tensor[[64, 64], pl.FP32], row: pl.Scalar[pl.INT64], out: pl.InOut[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_1811(self, data: pl.Tensor[[64, 64], pl.FP32], out: pl.InOut[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        prev = None
        for phase in pl.range(2):
            with pl.manual_scope():
                for b in pl.parallel(4):
                    out, prev = pl.submit(self.stripe, data, phase * 4 + b, out, deps=[prev])
            with pl.manual_scope():
                for b in pl.parallel(4):
                    out, prev = pl.submit(self.stripe, data, phase * 4 + b, out, deps=[prev])
        return out
