# Call-site directions (DeriveCallDirections): In, InOut, OutputExisting for a first write into
# an existing buffer, InOut for a later write into the same buffer, NoDep through pl.no_dep, and
# Output for a trailing Out parameter left out of pl.submit (the runtime allocates it).
import nanopass.dsl as pl


@pl.program
class RuntimeOutputs:
    @pl.function(type=pl.FunctionType.AIV)
    def produce(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def combine(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        lut: pl.Tensor[[256], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_outputs(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        lut: pl.Tensor[[256], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        fresh, tid = pl.submit(self.produce, x)
        out = self.produce(fresh, out)
        out = self.combine(fresh, pl.no_dep(lut), out)
        return out
