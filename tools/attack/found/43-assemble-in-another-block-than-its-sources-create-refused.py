# class: refusal
# nested grammar, size 5 (`T M A1 if(A2)`; also a loop or a manual scope around the outer assemble, or around the create and write of the inner source with its assemble after the scope), shrunk to one level: t made at the top and assembled into a in `if c > 0`. Refused until branch place41 ("pl.assemble needs a source made by pl.create_tensor in the same block; 't' is not"), though nothing between the create and the assemble touches the rows. Now placed when the branch will run (c is known at the create): the create is an if over c > 0 yielding the view of a, or a fresh buffer
#
# found on land40 (6c0160b), fixed since by branch place41 (fuse_across, check_uses_after):
# refused: prog.py:10:13: error: pl.assemble needs a source made by pl.create_tensor in the same block; 't' is not
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        t = pl.create_tensor([4, 4], dtype=pl.FP32)
        if c > 0:
            a = pl.assemble(a, t, [4, 0])
        return a
