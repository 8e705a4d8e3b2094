# reference-surface.md section 1: `with pl.spmd(4) as g:` and `for i in pl.spmd(n, ...)` blocks
# outlined into kernels <func>_incore_<k> launched on their block count; a pl.cluster block
# outlined into one Group of an AIC and a split AIV kernel (both AIV slots carry its id); the
# split vector kernel alone stays one AIV task, here launched SPMD.
import nanopass.dsl as pl


@pl.program
class SpmdBlocks:
    @pl.function(type=pl.FunctionType.AIC)
    def qk(self, q: pl.Tensor[[16, 64], pl.FP16], k: pl.Tensor[[64, 16], pl.FP16],
           s: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        a: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Left] = pl.load(q, [0, 0], [16, 64])
        b: pl.Tile[[64, 16], pl.FP16, pl.MemorySpace.Right] = pl.load(k, [0, 0], [64, 16])
        c: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(a, b)
        r: pl.Tensor[[16, 16], pl.FP32] = pl.store(c, [0, 0], s)
        return r

    @pl.function(type=pl.FunctionType.AIV, attrs={"split": pl.SplitMode.UP_DOWN})
    def softmax(self, s: pl.Tensor[[16, 16], pl.FP32], p: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(s, [0, 0], [16, 16])
        r: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.exp(t), [0, 0], p)
        return r

    @pl.function
    def main(self, a: pl.Tensor[[64, 32], pl.FP32], out: pl.InOut[pl.Tensor[[64, 32], pl.FP32]],
             q: pl.Tensor[[16, 64], pl.FP16], k: pl.Tensor[[64, 16], pl.FP16],
             p: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT32]) -> pl.Tensor[[64, 32], pl.FP32]:
        with pl.spmd(4) as g:
            b = pl.tile.get_block_idx()
            t = pl.load(a, [b * 16, 0], [16, 32])
            out = pl.store(t, [b * 16, 0], out)
        for i in pl.spmd(n, sync_start=True, deps=[g]):
            t = pl.load(out, [i * 16, 0], [16, 32])
            out = pl.store(pl.exp(t), [i * 16, 0], out)
        s = pl.create_tensor([16, 16], dtype=pl.FP32)
        with pl.cluster(name_hint="attention"):
            s = self.qk(q, k, s)
            p = self.softmax(s, p)
        p, last = pl.spmd_submit(self.softmax, s, p, core_num=2)
        return out
