# class: refusal
# nested grammar, size 6 (`manual { T M A1 A2 }; rd(u)`), shrunk: u is assembled into t and t into rows 4..7 of a, both in a manual scope; a task after the scope reads u. Refused until branch place41 ("'u' is used after it was assembled into 't'"), though nothing writes u or the rows it is placed in after the assembles: placed, the read sees what the copies hold. The uses after an assemble are now read on past the with blocks, ifs and loops around it
#
# found on land40 (6c0160b), fixed since by branch place41 (fuse_across, check_uses_after):
# refused: prog.py:15:13: error: 'u' is used after it was assembled into 't'
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def rdd(self, p0: pl.Tensor[[2, 4], pl.FP32], p1: pl.Out[pl.Tensor[[2, 4], pl.FP32]]) -> pl.Tensor[[2, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.manual_scope():
            t = pl.create_tensor([4, 4], dtype=pl.FP32)
            u = pl.create_tensor([2, 4], dtype=pl.FP32)
            t = pl.assemble(t, u, [2, 0])
            a = pl.assemble(a, t, [4, 0])
        f, q = pl.submit(self.rdd, u)
        return a
