# @pl.function(auto_scope=False): the compiler inserts no runtime scope; the user places AUTO
# scopes with pl.scope() and manual ones with pl.manual_scope().
import nanopass.dsl as pl


@pl.program
class HandScopes:
    @pl.function(type=pl.FunctionType.AIV)
    def work(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
    def orch_hand(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.work(x, y)
        with pl.scope():
            for i in pl.range(2):
                y = self.work(x, y)
        for j in pl.range(2):
            with pl.scope():
                y = self.work(x, y)
        return y
