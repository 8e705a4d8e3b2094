# Kernels on both cores: an AIC matmul, an InCore kernel classified by its memory spaces, a Group
# launching an AIC and an AIV kernel together (MixedKernels), and a dual-dispatch AIV kernel.
import nanopass.dsl as pl


@pl.program
class Groups:
    @pl.function(type=pl.FunctionType.AIC)
    def k_cube(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def k_vec(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.InCore)
    def k_incore(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        b: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        ta: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Left] = pl.load(a, [0, 0], [16, 16])
        tb: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Right] = pl.load(b, [0, 0], [16, 16])
        c: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(ta, tb)
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(c, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Group)
    def g_both(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        mid: pl.Tensor[[16, 16], pl.FP32] = self.k_cube(a, out)
        res: pl.Tensor[[16, 16], pl.FP32] = self.k_vec(mid, out)
        return res

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_groups(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        b: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        c: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
        c = self.k_incore(a, b, c)
        d: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
        d = self.g_both(c, d)
        e: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
        e = self.k_vec(d, e)
        out = self.k_cube(e, out)
        return out
