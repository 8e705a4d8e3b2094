# Host-side tensor operations: element reads and writes, views (slice, transpose, reshape),
# tensor.dim, and pl.assemble writing a tile back into a larger tensor.
import nanopass.dsl as pl


@pl.program
class TensorOps:
    @pl.function(type=pl.FunctionType.AIV)
    def scale_rows(
        self,
        src: pl.Tensor[[16, 64], pl.FP32],
        factor: pl.Scalar[pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t: pl.Tile[[16, 64], pl.FP32] = pl.load(src, [0, 0], [16, 64])
        r: pl.Tensor[[16, 64], pl.FP32] = pl.store(pl.mul(t, factor), [0, 0], dst)
        return r

    @pl.function(type=pl.FunctionType.AIV)
    def reduce_cols(
        self,
        flat: pl.Tensor[[64, 16], pl.FP32],
        square: pl.Tensor[[64, 64], pl.FP32],
        dst: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
    ) -> pl.Tensor[[64, 16], pl.FP32]:
        t: pl.Tile[[64, 16], pl.FP32] = pl.load(flat, [0, 0], [64, 16])
        r: pl.Tensor[[64, 16], pl.FP32] = pl.store(t, [0, 0], dst)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tensor_ops(
        self,
        table: pl.Tensor[[64, 64], pl.FP32],
        flags: pl.InOut[pl.Tensor[[4], pl.INT32]],
        out: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
    ) -> pl.Tensor[[64, 16], pl.FP32]:
        factor: pl.Scalar[pl.FP32] = pl.tensor.read(table, [0, 0])
        first = flags[0]
        pl.tensor.write(flags, [1], first + 1)
        top = pl.tensor.slice(table, [16, 64], [16, 0])
        big = pl.create_tensor([64, 64], dtype=pl.FP32)
        scaled = pl.create_tensor([16, 64], dtype=pl.FP32)
        scaled = self.scale_rows(top, factor, scaled)
        flat = pl.tensor.reshape(scaled, [64, 16])
        rows = pl.tensor.dim(table, 0)
        big = pl.assemble(big, scaled, [16, 0])
        wide = pl.tensor.transpose(big, 0, 1)
        out = self.reduce_cols(flat, wide, out)
        pl.tensor.write(flags, [2], rows)
        return out
