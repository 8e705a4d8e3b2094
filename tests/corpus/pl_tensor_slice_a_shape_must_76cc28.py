# fuzz: derive_boxes: module: module constant K_NEW = True, used in orch_boxes; duplicate: duplicate 'bottom = self.fill(x, bottom)'
# expect: 10:36: error: pl.tensor.slice: a shape must be a list, like [16, 16]
import nanopass.dsl as pl

@pl.program
class DeriveBoxes:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_boxes(self, buf: pl.InOut[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        top = pl.tensor.slice(buf, K_NEW, [0, 0])
