# class: value hread
# issue 21 class 5 as listed: a read of the target between the source's write and the assemble observes the assembled rows
#
# found on branch attack:
# n=0 c=0: [value hread] host read (line 14, #1) argument 0 element 0 observes the write of task wb (line 13, #0), the program means the initial a[21]
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def wb(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        t = pl.create_tensor([4, 4], dtype=pl.FP32)
        t = self.wb(x, t)
        v = pl.tensor.read(a, [5, 1])
        pl.tensor.write(sink, [0], v)
        a = pl.assemble(a, t, [4, 0])
        return a
