# A @pl.jit entry holding a pl.at block after a call of a @pl.jit.incore kernel.
import nanopass.dsl as pl


@pl.jit.incore
def scale(src: pl.Tensor[[16, 16], pl.FP32], f: pl.Scalar[pl.FP32],
          dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    t = pl.load(src, [0, 0], [16, 16])
    dst = pl.store(pl.muls(t, f), [0, 0], dst)
    return dst


@pl.jit
def main(x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
         z: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    y = scale(x, 2.0, y)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="add_y"):
        z = pl.assemble(z, pl.add(z, y), [0, 0])
    return z
