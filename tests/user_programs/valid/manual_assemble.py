# Inside a manual scope: two tasks fill scratch tiles, each assembled into a row block of the
# result; a final task waits for both and reads the result.
import nanopass.dsl as pl


@pl.program
class ManualAssemble:
    @pl.function(type=pl.FunctionType.AIV)
    def tile(self, src: pl.Tensor[[8, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def total(self, src: pl.Tensor[[16, 16], pl.FP32],
              dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        res = pl.create_tensor([16, 16], dtype=pl.FP32)
        with pl.manual_scope():
            a = pl.create_tensor([8, 16], dtype=pl.FP32)
            b = pl.create_tensor([8, 16], dtype=pl.FP32)
            a, ta = pl.submit(self.tile, pl.slice(x, [8, 16], [0, 0]), a)
            b, tb = pl.submit(self.tile, pl.slice(x, [8, 16], [8, 0]), b)
            res = pl.assemble(res, a, [0, 0])
            res = pl.assemble(res, b, [8, 0])
            out, tt = pl.submit(self.total, res, out, deps=[ta, tb])
        return out
