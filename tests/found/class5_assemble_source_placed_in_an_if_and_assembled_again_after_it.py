# issue 21, class 5: t is assembled into rows 4..7 of a twice, in an if (through the alias g) and
# in a loop after it; placed only where the if's assemble runs, with c = 0 t was its own buffer and
# the loop's assemble was taken for a copy already made: a[4:8] kept its entry values
# (tools/attack --grammar rebinds --seed 5927, program 382).
# check: n=0 c=0
# check: n=0 c=1
import nanopass.dsl as pl

@pl.program
class Found:
    @pl.function(type=pl.FunctionType.AIV)
    def wrB(self, p0: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p0

    @pl.function(type=pl.FunctionType.AIV)
    def rdD(self, p0: pl.Tensor[[2, 4], pl.FP32], p1: pl.Out[pl.Tensor[[2, 4], pl.FP32]]) -> pl.Tensor[[2, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        t = pl.create_tensor([4, 4], dtype=pl.FP32)
        u = pl.create_tensor([4, 4], dtype=pl.FP32)
        t = self.wrB(t)
        u = self.wrB(u)
        v = pl.tensor.slice(t, [2, 4], [2, 0])
        g = a
        if c > 0:
            h1 = pl.tensor.read(u, [3, 1])
            pl.tensor.write(sink, [1], h1)
            s2 = pl.tensor.slice(u, [2, 4], [2, 0])
            f3, k4 = pl.submit(self.rdD, s2)
            g = pl.assemble(g, t, [4, 0])
        for i5 in pl.range(1):
            a = pl.assemble(a, u, [0, 0])
            a = pl.assemble(a, t, [4, 0])
        return a
