# class: refusal
# random nested programs (`--grammar nested --seed 2`, nested20000240), shrunk: u assembled into t, then a manual scope reads u and then the host writes t[3, 1], a row u is placed in. Refused until branch place41 ("'u' is used after it was assembled into 't'"), though the write comes after the read: placed, the read sees what the copy holds. The with block is now read through (in a `pl.range` loop the refusal is right: the next iteration reads after the write)
#
# found on land40 (6c0160b), fixed since by branch place41 (fuse_across, check_uses_after):
# refused: prog.py:14:9: error: 'u' is used after it was assembled into 't'
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def rdd(self, p0: pl.Tensor[[2, 4], pl.FP32], p1: pl.Out[pl.Tensor[[2, 4], pl.FP32]]) -> pl.Tensor[[2, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        t = pl.create_tensor([4, 4], dtype=pl.FP32)
        u = pl.create_tensor([2, 4], dtype=pl.FP32)
        t = pl.assemble(t, u, [2, 0])
        with pl.manual_scope():
            tu = None
            f1, tu = pl.submit(self.rdd, u, deps=[tu])
            pl.tensor.write(t, [3, 1], 1.0)
        return a
