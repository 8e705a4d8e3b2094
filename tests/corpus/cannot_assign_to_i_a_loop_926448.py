# fuzz: hand_scopes: rename: rename one y -> i
# expect: 15:13: error: cannot assign to 'i' (a loop variable)
import nanopass.dsl as pl

@pl.program
class HandScopes:

    @pl.function(type=pl.FunctionType.AIV)
    def work(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
    def orch_hand(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.range(2):
            i = self.work(x, y)
