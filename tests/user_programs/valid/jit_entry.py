# @pl.jit with fully annotated parameters: an incore kernel, an inline helper and the entry.
import nanopass.dsl as pl


@pl.jit.incore
def twice(src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    t = pl.load(src, [0, 0], [16, 16])
    dst = pl.store(pl.add(t, t), [0, 0], dst)
    return dst


@pl.jit.inline
def four_times(src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    tmp = pl.create_tensor([16, 16], dtype=pl.FP32)
    tmp = twice(src, tmp)
    dst = twice(tmp, dst)
    return dst


@pl.jit
def main(x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    y = four_times(x, y)
    return y
