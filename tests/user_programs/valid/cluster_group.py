# A pl.cluster block grouping an AIC and a split AIV kernel into one Group task, then the vector
# kernel alone launched SPMD on two blocks, in a plain @pl.function: a function holding an outlined
# block (a pl.cluster block among them) is promoted to Orchestration (reference-surface.md section 3).
import nanopass.dsl as pl


@pl.program
class ClusterGroup:
    @pl.function(type=pl.FunctionType.AIC)
    def qk(self, q: pl.Tensor[[16, 64], pl.FP16], k: pl.Tensor[[64, 16], pl.FP16],
           s: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        a: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Left] = pl.load(q, [0, 0], [16, 64])
        b: pl.Tile[[64, 16], pl.FP16, pl.MemorySpace.Right] = pl.load(k, [0, 0], [64, 16])
        c: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(a, b)
        s = pl.store(c, [0, 0], s)
        return s

    @pl.function(type=pl.FunctionType.AIV, attrs={"split": pl.SplitMode.UP_DOWN})
    def softmax(self, s: pl.Tensor[[16, 16], pl.FP32],
                p: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(s, [0, 0], [16, 16])
        p = pl.store(pl.exp(t), [0, 0], p)
        return p

    @pl.function
    def main(self, q: pl.Tensor[[16, 64], pl.FP16], k: pl.Tensor[[64, 16], pl.FP16],
             p: pl.Out[pl.Tensor[[16, 16], pl.FP32]], p2: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        s = pl.create_tensor([16, 16], dtype=pl.FP32)
        with pl.cluster(name_hint="attention"):
            s = self.qk(q, k, s)
            p = self.softmax(s, p)
        p2, last = pl.spmd_submit(self.softmax, s, p2, core_num=2)
        return p
