# fuzz: runtime_outputs: dtype: dtype FP32 -> INDEX
# expect: 14:46: error: parameter 'x' of 'produce' is pl.Tensor[[16, 16], pl.FP32] but the argument is pl.Tensor[[16, 16], pl.INDEX]
import nanopass.dsl as pl

@pl.program
class RuntimeOutputs:

    @pl.function(type=pl.FunctionType.AIV)
    def produce(self, x: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_outputs(self, x: pl.Tensor[[16, 16], pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        fresh, tid = pl.submit(self.produce, x)
