# A user's attention block: an AIC matmul and an AIV softmax per row block of q, over slices of
# the inputs; the scores buffer is created once and reused by every block.
import nanopass.dsl as pl

ROWS = 64
BLOCK = 16


@pl.program
class AttentionTiles:
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
    def attend(self, q: pl.Tensor[[64, 64], pl.FP16], k: pl.Tensor[[64, 16], pl.FP16],
               probs: pl.InOut[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        scores = pl.create_tensor([16, 16], dtype=pl.FP32)
        for blk in pl.range(ROWS // BLOCK):
            q_rows = pl.slice(q, [16, 64], [blk * BLOCK, 0])
            p_rows = pl.slice(probs, [16, 16], [blk * BLOCK, 0])
            scores = self.qk(q_rows, k, scores)
            p_rows = self.softmax(scores, p_rows)
        return probs
