# Selective dump (pl.dump_tag, dumps=), early resolve, call-site arg_directions and pl.const.
import nanopass.dsl as pl


@pl.program
class DumpsAttrs:
    @pl.function(type=pl.FunctionType.AIV)
    def bump(self, src: pl.Tensor[[16, 16], pl.FP32], alpha: pl.Scalar[pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(pl.muls(t, alpha), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, inp: pl.Tensor[[16, 16], pl.FP32], mid: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
            fin: pl.Out[pl.Tensor[[16, 16], pl.FP32]], spare: pl.Tensor[[16, 16], pl.FP32],
            n: pl.Scalar[pl.INT32]) -> pl.Tensor[[16, 16], pl.FP32]:
        mid, t0 = pl.submit(self.bump, inp, pl.const(1.0, pl.FP32), mid, dumps=[inp], allow_early_resolve=True)
        pl.dump_tag(mid)
        pl.dump_tag(spare)
        if n > pl.const(2, pl.INT32):
            fin = self.bump(mid, pl.const(0.5, pl.FP32), fin,
                            attrs={"arg_directions": [pl.adir.input, pl.adir.scalar, pl.adir.output_existing]})
        else:
            fin = self.bump(inp, 2.0, fin)
        return fin
