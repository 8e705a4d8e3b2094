# class: hazard WAR task>task MM recorded-only
# rows grammar, size 3: a task reads rows 0..3 of `a` through a slice in a manual scope, then a create + write + assemble into the same rows; the placed source's writer may overwrite the rows before the reader has read them
#
# found on branch att5 (main c6721bf), fixed since by the placement pairs of branch asm21:
# n=0 c=0: [hazard WAR task>task MM recorded-only] WAR between task rd (line 19, #0) and task wr (line 21, #1) is not ordered (recorded memory)
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def rd(self, p0: pl.Tensor[[4, 4], pl.FP32], p1: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.AIV)
    def wr(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], v: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.manual_scope():
            t = None
            s = pl.tensor.slice(a, [4, 4], [0, 0])
            f, t = pl.submit(self.rd, s, deps=[t])
            q = pl.create_tensor([4, 4], dtype=pl.FP32)
            q, u = pl.submit(self.wr, x, q)
            a = pl.assemble(a, q, [0, 0])
        return a
