# reference-surface.md section 9: @pl.jit with every parameter fully annotated, read as the @pl.program class it stands for.
import nanopass.dsl as pl


@pl.jit.incore(level=1)
def twice(src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    t = pl.load(src, [0, 0], [16, 16])
    dst = pl.store(t, [0, 0], dst)
    return dst


@pl.jit
def main(x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    tmp = pl.create_tensor([16, 16], dtype=pl.FP32)
    tmp = twice(x, tmp)
    y = twice(tmp, y)
    return y
