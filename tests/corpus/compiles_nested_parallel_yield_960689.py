# fuzz: array_carry_across_scope: duplicate: duplicate 'for b in pl.parallel(4):'
# expect: compiles
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
