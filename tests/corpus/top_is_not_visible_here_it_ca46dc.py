# fuzz: derive_boxes: block: wrap 2 statement(s) in 'if n > 0:'
# expect: 18:28: error: 'top' is not visible here: it was defined only in the else-branch of the if at line 14
import nanopass.dsl as pl

@pl.program
class DeriveBoxes:

    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, x: pl.Tensor[[8, 16], pl.FP32], y: pl.InOut[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_boxes(self, x: pl.Tensor[[8, 16], pl.FP32], buf: pl.InOut[pl.Tensor[[32, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[32, 16], pl.FP32]:
        if n > 0:
            pass
        else:
            top = pl.tensor.slice(buf, [8, 16], [0, 0])
        top = self.fill(x, top)
