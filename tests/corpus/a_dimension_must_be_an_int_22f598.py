# fuzz: derive_boxes: rename: rename one x -> range; replace: replace '16' by 'pl'
# expect: 9:43: error: a dimension must be an int or pl.dynamic(...), got a module ('nanopass.dsl')
import nanopass.dsl as pl

@pl.program
class DeriveBoxes:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_boxes(self, x: pl.Tensor[[8, pl], pl.FP32]) -> pl.Tensor[[32, 16], pl.FP32]:
        pass
