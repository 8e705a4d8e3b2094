# options: analyze_auto_scopes_for_deps=True
# A fallback: the host reads an element of a tensor a task writes (get_tensor_data waits only for
# writers the runtime tracks), so the function stays an AUTO region; the derived edges are added
# on top of the runtime's own tracking.
import nanopass.dsl as pl


@pl.program
class DeriveFallback:
    @pl.function(type=pl.FunctionType.AIV)
    def step(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_fallback(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        flags: pl.InOut[pl.Tensor[[4], pl.INT32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.step(x, y)
        y = self.step(x, y)
        first = pl.tensor.read(y, [0, 0])
        pl.tensor.write(flags, [0], 1)
        return y
