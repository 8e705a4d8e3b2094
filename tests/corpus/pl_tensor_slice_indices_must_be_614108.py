# fuzz: derive_boxes: duplicate: duplicate 'top = pl.tensor.slice(buf, [8, 16], [0, 0])'; replace: replace '[24, 0]' by '(x := 1)'
# expect: 10:49: error: pl.tensor.slice: indices must be a list, like [i, j]
import nanopass.dsl as pl

@pl.program
class DeriveBoxes:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_boxes(self, buf: pl.InOut[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        bottom = pl.tensor.slice(buf, [8, 16], (x := 1))
