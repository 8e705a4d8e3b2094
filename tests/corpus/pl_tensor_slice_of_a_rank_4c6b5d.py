# fuzz: derive_boxes: shape: shape [8, 16] -> [8]
# expect: 10:39: error: pl.tensor.slice of a rank-2 tensor needs a shape and an offset of rank 2: this shape has 1 entry
import nanopass.dsl as pl

@pl.program
class DeriveBoxes:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_boxes(self, buf: pl.InOut[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        middle = pl.tensor.slice(buf, [8], [4, 0])
