# A pl.at block inside a pl.range loop storing one row block per iteration into an InOut
# parameter; a scalar parameter is captured as the kernel's scalar argument.
import nanopass.dsl as pl


@pl.program
class AtInLoop:
    @pl.function
    def rows(self, a: pl.Tensor[[64, 32], pl.FP32], out: pl.InOut[pl.Tensor[[64, 32], pl.FP32]],
             scale: pl.Scalar[pl.FP32]) -> pl.Tensor[[64, 32], pl.FP32]:
        for i in pl.range(4):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="row_scale"):
                row = pl.load(a, [i * 16, 0], [16, 32])
                out = pl.store(pl.muls(row, scale), [i * 16, 0], out)
        return out
