# class: value final
# issue 21 class 5, a shape it does not list: the source of pl.assemble made by create_tensor(init_value=...) and never written; placing it inside the target drops the fill, so the target keeps its old rows
#
# found on branch attack:
# n=0 c=0: [value final] parameter a element 0 ends with the initial a[0], the program means a fill value (bits 0x3f000000)
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        t = pl.create_tensor([4, 4], dtype=pl.FP32, init_value=0.5)
        a = pl.assemble(a, t, [0, 0])
        return a
