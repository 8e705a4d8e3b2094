# if/else on a scalar comparison whose branches yield a tensor: the result picks which input the
# next task reads.
import nanopass.dsl as pl


@pl.program
class BranchYield:
    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def pick(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
             flag: pl.Scalar[pl.INT32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        tmp = pl.create_tensor([16, 16], dtype=pl.FP32)
        if flag > 0:
            tmp = self.copy(a, tmp)
            src = pl.yield_(tmp)
        else:
            src = pl.yield_(b)
        out = self.copy(src, out)
        return out
