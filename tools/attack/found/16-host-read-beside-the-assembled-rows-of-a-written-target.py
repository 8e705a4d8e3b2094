# class: refusal
# not in issue 21 (found on land21, seed 5): a host read of row 6 of a target a task has written (its name is then the task's result, the same buffer) was taken for a read of all of it, so the placement of the source in rows 2-5 was refused as visible
#
# found on branch land21:
# refused: prog.py:17:9: error: pl.assemble cannot make 's' a view of 't' (the runtime cannot copy): the host (line 15) reads the rows of 't' that 's' would share, between the creation of 's' and the assemble; as a view, the read would see 's' there before the assemble
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def ua(self, p0: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        return p0

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        t = pl.create_tensor([8, 4], dtype=pl.FP32)
        t = self.ua(t)
        s = pl.create_tensor([4, 4], dtype=pl.FP32)
        v = pl.tensor.read(t, [6, 1])
        pl.tensor.write(sink, [0], v)
        t = pl.assemble(t, s, [2, 0])
        return a
