# class: refusal
# default grammar, random seed 4931 (r49310000024), shrunk by hand: t6, made and never written, is assembled into rows 2..5 of f3 and rows 0..3 of f4, both outputs the runtime allocates for one task; only f4 is read. Refused as a use of t6 after its assemble into f3, though nothing reads f3: placing t6 in f4 alone is a correct compilation (t6's rows are undefined, so any value read from them is)
#
# found on main 371bfc0 (session 29), fixed in session 30:
# nothing (fixed)
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def two(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.Out[pl.Tensor[[8, 4], pl.FP32]], p2: pl.Out[pl.Tensor[[8, 4], pl.FP32]]) -> tuple[pl.Tensor[[8, 4], pl.FP32], pl.Tensor[[8, 4], pl.FP32]]:
        return p1, p2

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        (f3, f4), t5 = pl.submit(self.two, x)
        t6 = pl.create_tensor([4, 4], dtype=pl.FP32)
        f3 = pl.assemble(f3, t6, [2, 0])
        f4 = pl.assemble(f4, t6, [0, 0])
        v = pl.tensor.read(f4, [3, 2])
        pl.tensor.write(sink, [2], v)
        return a
