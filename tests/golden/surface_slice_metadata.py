# reference-surface.md section 2: the keywords of a view that only change IR metadata print
# nothing: a slice's valid_shape= (a list of the tensor's rank, here with a scalar parameter) and
# pl.tensor.slice's pad_value=, and pl.tensor.view's valid_shape=. The C++ is that of the same
# views without them: a view over the parent's buffer, dependency tracking on the parent.
# (drop_dims= is refused: README, deliberate differences, drop-dims.)
import nanopass.dsl as pl


@pl.program
class SliceMetadata:
    @pl.function(type=pl.FunctionType.AIV)
    def scale_rows(self, src: pl.Tensor[[8, 32], pl.FP32],
                   dst: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, big: pl.Tensor[[24, 32], pl.FP32], flat: pl.Tensor[[4, 64], pl.FP32], rows: pl.Scalar[pl.INT64],
            res: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        win = pl.slice(big, [8, 32], [16, 0], valid_shape=[rows, 32])
        res = self.scale_rows(win, res)
        pad = pl.tensor.slice(big, [8, 32], [0, 0], valid_shape=[8, 32], pad_value=0.0, clamp=False)
        res = self.scale_rows(pad, res)
        v = pl.tensor.view(flat, [8, 32], valid_shape=[rows, 32])
        res = self.scale_rows(v, res)
        return res
