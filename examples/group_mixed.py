# Kernel kinds and where they run (D6): an AIC kernel, an untyped InCore kernel classified by
# the memory spaces it uses (a matmul means the cube core), and Group functions that launch an
# AIC and an AIV kernel together (MixedKernels + rt_submit_task; the AIV kernel is dispatched
# to both vector lanes) or an AIV kernel alone.
import nanopass.dsl as pl


@pl.program
class GroupMixed:
    @pl.function(type=pl.FunctionType.AIC)
    def qk_matmul(
        self,
        q: pl.Tensor[[16, 64], pl.FP16],
        k: pl.Tensor[[64, 16], pl.FP16],
        s: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        a: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Left] = pl.load(q, [0, 0], [16, 64])
        b: pl.Tile[[64, 16], pl.FP16, pl.MemorySpace.Right] = pl.load(k, [0, 0], [64, 16])
        c: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(a, b)
        r: pl.Tensor[[16, 16], pl.FP32] = pl.store(c, [0, 0], s)
        return r

    @pl.function(type=pl.FunctionType.AIV, dual_aiv_dispatch=True)
    def softmax(
        self,
        s: pl.Tensor[[16, 16], pl.FP32],
        p: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(s, [0, 0], [16, 16])
        r: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.exp(t), [0, 0], p)
        return r

    @pl.function(type=pl.FunctionType.InCore)
    def pv_matmul(
        self,
        p: pl.Tensor[[16, 16], pl.FP16],
        v: pl.Tensor[[16, 64], pl.FP16],
        o: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        a: pl.Tile[[16, 16], pl.FP16] = pl.load(p, [0, 0], [16, 16])
        b: pl.Tile[[16, 64], pl.FP16] = pl.load(v, [0, 0], [16, 64])
        c: pl.Tile[[16, 64], pl.FP32] = pl.matmul(a, b)
        r: pl.Tensor[[16, 64], pl.FP32] = pl.store(c, [0, 0], o)
        return r

    @pl.function(type=pl.FunctionType.InCore)
    def rescale(
        self,
        o: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t: pl.Tile[[16, 64], pl.FP32] = pl.load(o, [0, 0], [16, 64])
        r: pl.Tensor[[16, 64], pl.FP32] = pl.store(t, [0, 0], out)
        return r

    @pl.function(type=pl.FunctionType.Group)
    def attention_block(
        self,
        q: pl.Tensor[[16, 64], pl.FP16],
        k: pl.Tensor[[64, 16], pl.FP16],
        s: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        p: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        s = self.qk_matmul(q, k, s)
        p = self.softmax(s, p)
        return p

    @pl.function(type=pl.FunctionType.Group)
    def vector_only(
        self,
        s: pl.Tensor[[16, 16], pl.FP32],
        p: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        p = self.softmax(s, p)
        return p

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_groups(
        self,
        q: pl.Tensor[[16, 64], pl.FP16],
        k: pl.Tensor[[64, 16], pl.FP16],
        v: pl.Tensor[[16, 64], pl.FP16],
        pf: pl.Tensor[[16, 16], pl.FP16],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        s = pl.create_tensor([16, 16], dtype=pl.FP32)
        p = pl.create_tensor([16, 16], dtype=pl.FP32)
        o = pl.create_tensor([16, 64], dtype=pl.FP32)
        p = self.attention_block(q, k, s, p)
        p = self.vector_only(s, p)
        o = self.pv_matmul(pf, v, o)
        out = self.rescale(o, out)
        return out
