# pl.no_dep on an argument the user knows is not shared, and a hand-placed pl.scope() block in a
# function that places its own scopes (auto_scope=False).
import nanopass.dsl as pl


@pl.program
class NoDepScope:
    @pl.function(type=pl.FunctionType.AIV)
    def mix(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
            dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
    def run(self, a: pl.Tensor[[16, 16], pl.FP32], table: pl.Tensor[[16, 16], pl.FP32],
            out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.scope():
            out = self.mix(a, pl.no_dep(table), out)
            out = self.mix(out, pl.no_dep(table), out)
        out = self.mix(a, a, out)
        return out
