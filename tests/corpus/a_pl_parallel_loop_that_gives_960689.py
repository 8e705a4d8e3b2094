# fuzz: array_carry_across_scope: duplicate: duplicate 'for b in pl.parallel(4):'
# expect: 17:17: error: a pl.parallel loop that gives each iteration one TaskId slot must yield one TaskId per iteration, but this one may yield several (the ids of a nested pl.parallel loop, or, in a loop whose body names one slot of a TaskId array, the ids its carry starts from)
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
                    for b in pl.parallel(4):
                        out, prev = pl.submit(self.stripe, data, phase * 4 + b, out, deps=[prev])
        return out
