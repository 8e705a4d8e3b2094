# class: refusal
# rows grammar, size 3: in a manual scope, a create + write + assemble into rows 4..7 of `a`, then a host write of a[1, 1] (rows 0..3; a host read is refused alike). Refused: "the host writes an element of 'a' in the manual scope where task wr writes it"; the source's writer writes rows 4..7 only, placed or not, so the program has a correct compilation (found/16's imprecision, inside a manual scope). With the host access on rows 4..7 the refusal is right: the placed source's writer races it
#
# found on branch att5 (main c6721bf), fixed since by the host waits of branch ref21:
# refused: prog.py:17:13: error: the host writes an element of 'a' in the manual scope where task wr (line 15) writes it: set_tensor_data waits only for the tensor's creator, its TensorMap producers and their consumers, a task in a manual scope is neither, and no dependency can make a host access wait, so this access would race the task
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def wr(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], v: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.manual_scope():
            u = None
            t = pl.create_tensor([4, 4], dtype=pl.FP32)
            t, u = pl.submit(self.wr, x, t)
            a = pl.assemble(a, t, [4, 0])
            pl.tensor.write(a, [1, 1], 1.0)
        return a
