# Host element access, views (slice, transpose, reshape), dims and fills.
# check: M=64
# check: M=16
# check: M=48
import nanopass.dsl as pl

M = pl.dynamic("M")


@pl.program
class TensorOps:
    @pl.function(type=pl.FunctionType.AIV)
    def k_scale(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        s: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def k_acc(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], acc)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_ops(
        self,
        big: pl.InOut[pl.Tensor[[M, 16], pl.FP32]],
        sq: pl.Tensor[[16, 16], pl.FP32],
        flags: pl.InOut[pl.Tensor[[4], pl.INT32]],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        rows = pl.tensor.dim(big, 0)
        blocks = rows // 16
        pl.tensor.write(flags, [0], blocks)
        for i in pl.range(blocks):
            part = pl.tensor.slice(big, [16, 16], [i * 16, 0])
            part = self.k_acc(sq, part)
        n = pl.tensor.read(flags, [0])
        tr = pl.tensor.transpose(sq, 0, 1)
        tmp: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=1.5)
        tmp = self.k_scale(tr, tmp, n)
        flat = pl.tensor.reshape(tmp, [256])
        v = pl.tensor.read(flat, [17])
        back = pl.tensor.reshape(flat, [16, 16])
        out = self.k_scale(back, out, n - 1)
        if v > 1.0:
            pl.tensor.write(flags, [2], 5)
        pl.tensor.write(flags, [3], n * 7 % 5)
        first = pl.tensor.slice(big, [16, 16], [0, 0])
        out = self.k_acc(first, out)
        return out
