# A typo in a pl.cluster block: kk for k, a parameter the first kernel call reads.
# expect: 30:28: error: name 'kk' is not defined
# where: the name kk
import nanopass.dsl as pl


@pl.program
class ClusterBlockUndefinedName:
    @pl.function(type=pl.FunctionType.AIC)
    def qk(self, q: pl.Tensor[[16, 64], pl.FP16], k: pl.Tensor[[64, 16], pl.FP16],
           s: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        a: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Left] = pl.load(q, [0, 0], [16, 64])
        b: pl.Tile[[64, 16], pl.FP16, pl.MemorySpace.Right] = pl.load(k, [0, 0], [64, 16])
        c: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(a, b)
        s = pl.store(c, [0, 0], s)
        return s

    @pl.function(type=pl.FunctionType.AIV)
    def softmax(self, s: pl.Tensor[[16, 16], pl.FP32],
                p: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(s, [0, 0], [16, 16])
        p = pl.store(pl.exp(t), [0, 0], p)
        return p

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, q: pl.Tensor[[16, 64], pl.FP16], k: pl.Tensor[[64, 16], pl.FP16],
             p: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        s = pl.create_tensor([16, 16], dtype=pl.FP32)
        with pl.cluster(name_hint="attention"):
            s = self.qk(q, kk, s)
            p = self.softmax(s, p)
        return p
