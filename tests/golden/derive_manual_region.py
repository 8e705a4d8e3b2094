# options: analyze_auto_scopes_for_deps=True
# Compiler-derived dependencies (opt-in): every hazard of the AUTO function becomes an explicit
# edge (a read-after-write through an internal tensor, a write-after-write on an InOut output),
# nothing needs the runtime's tracking, so the body runs as a compiler-owned MANUAL scope; the
# allocation stays in the enclosing AUTO scope.
import nanopass.dsl as pl


@pl.program
class DeriveManualRegion:
    @pl.function(type=pl.FunctionType.AIV)
    def step(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def accumulate(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return acc

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_derive(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.step(x, t)
        acc = self.accumulate(t, acc)
        acc = self.accumulate(x, acc)
        return acc
