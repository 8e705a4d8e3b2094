# pl.unroll whose body is a pl.at block: one task per copy, the index a constant.
import nanopass.dsl as pl


@pl.program
class UnrollAt:
    @pl.function
    def main(self, a: pl.Tensor[[48, 16], pl.FP32], out: pl.InOut[pl.Tensor[[48, 16], pl.FP32]]) -> pl.Tensor[[48, 16], pl.FP32]:
        for h in pl.unroll(3):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="head"):
                t = pl.load(a, [h * 16, 0], [16, 16])
                out = pl.store(pl.exp(t), [h * 16, 0], out)
        return out
