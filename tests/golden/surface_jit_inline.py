# reference-surface.md sections 9 and 5: an @pl.jit.inline function is the class form's FunctionType.Inline:
# each call is replaced by a copy of its body (locals renamed <name>_inline<k>, one counter for the
# run), its calls twice(...) read as self.twice(...); it leaves no kernel and no id. Both creates
# (one per call site) are batched into one alloc_tensors.
import nanopass.dsl as pl


@pl.jit.incore(level=1)
def twice(src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    t = pl.load(src, [0, 0], [16, 16])
    dst = pl.store(t, [0, 0], dst)
    return dst


@pl.jit.inline
def two_steps(src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    scratch = pl.create_tensor([16, 16], dtype=pl.FP32)
    scratch = twice(src, scratch)
    dst = twice(scratch, dst)
    return dst


@pl.jit
def main(x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
         z: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    y = two_steps(x, y)
    z = two_steps(y, z)
    return z
