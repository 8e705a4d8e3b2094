# A pl.parallel loop over row blocks of an InOut tensor, with a trip count from a scalar
# parameter and a step: one AUTO scope per iteration; the tensor is written in place, so no
# carry variable is needed.
import nanopass.dsl as pl


@pl.program
class ParallelLoop:
    @pl.function(type=pl.FunctionType.AIV)
    def block(
        self,
        x: pl.Tensor[[128, 64], pl.FP32],
        row: pl.Scalar[pl.INT64],
        y: pl.InOut[pl.Tensor[[128, 64], pl.FP32]],
    ) -> pl.Tensor[[128, 64], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_parallel(
        self,
        x: pl.Tensor[[128, 64], pl.FP32],
        y: pl.InOut[pl.Tensor[[128, 64], pl.FP32]],
        rows: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[128, 64], pl.FP32]:
        for r in pl.parallel(0, rows, 16):
            y = self.block(x, r, y)
        return y
