# The host writes a per-iteration parameter into a small table before each task reads it, and
# reads a status element after the loop.
import nanopass.dsl as pl


@pl.program
class HostWriteLoop:
    @pl.function(type=pl.FunctionType.AIV)
    def apply(self, params: pl.Tensor[[8], pl.INT32], x: pl.Tensor[[16, 16], pl.FP32],
              y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], status: pl.InOut[pl.Tensor[[1], pl.INT32]]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[1], pl.INT32]]:
        return y, status

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
            status: pl.InOut[pl.Tensor[[1], pl.INT32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        params = pl.create_tensor([8], dtype=pl.INT32, init_value=0)
        for i in pl.range(n):
            pl.tensor.write(params, [i % 8], i * 3)
            y, status = self.apply(params, x, y, status)
        code = pl.tensor.read(status, [0])
        if code != 0:
            y, status = self.apply(params, y, y, status)
        return y
