# arg_directions forcing a no_dep slot and an inout slot; compiler_manual_dep_edges from a submit.
import nanopass.dsl as pl


@pl.program
class AttrsNoDep:
    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, src: pl.Tensor[[16, 16], pl.FP32],
            dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
            c: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], d: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        b = self.acc(a, b, attrs={"arg_directions": [pl.adir.input, pl.adir.inout]})
        c = self.acc(a, c, attrs={"arg_directions": [pl.adir.no_dep, pl.adir.output_existing]})
        d, t = pl.submit(self.acc, b, d)
        c = self.acc(d, c, attrs={"compiler_manual_dep_edges": [t]})
        return c
