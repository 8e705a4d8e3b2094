# A pl.at block using a scalar the host read from a tensor the program wrote, and a slice view.
import nanopass.dsl as pl


@pl.program
class AtHostScalar:
    @pl.function
    def main(self, a: pl.Tensor[[32, 32], pl.FP32], cfg: pl.InOut[pl.Tensor[[2], pl.FP32]],
             out: pl.InOut[pl.Tensor[[32, 32], pl.FP32]], g: pl.Scalar[pl.FP32]) -> pl.Tensor[[32, 32], pl.FP32]:
        pl.tensor.write(cfg, [1], g)
        s = pl.tensor.read(cfg, [1])
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="scale_top"):
            top = pl.load(a, [0, 0], [16, 32])
            out = pl.store(pl.muls(top, s), [0, 0], out)
        v = pl.tensor.read(out, [0, 0])
        pl.tensor.write(cfg, [0], v)
        return out
