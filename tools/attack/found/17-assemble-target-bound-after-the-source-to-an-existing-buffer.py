# class: refusal
# issue 21 class 7's family (found on land21 + fixes, seed 6): the target is a copy of a tensor that exists when the source is created, bound after it (`a = b`, a swap); the target's name had to exist there, not only its buffer
#
# found on branch longrun (330d7e5):
# refused: prog.py:10:9: error: the target 'a' of pl.assemble must exist before its source 't' is created
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        t = pl.create_tensor([4, 4], dtype=pl.FP32)
        a = b
        a = pl.assemble(a, t, [2, 0])
        v = pl.tensor.read(a, [3, 1])
        pl.tensor.write(sink, [0], v)
        return a
