# fuzz: basic: shape: shape [16, 16] -> [16]; replace: replace 'd' by 'n if n else 1'
# expect: 10:9: error: type annotation of 'c' is pl.Tensor[[16, 16], pl.FP32] but the value is pl.Tensor[[16], pl.FP32]
import nanopass.dsl as pl

@pl.program
class Basic:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_basic(self) -> pl.Tensor[[16, 16], pl.FP32]:
        c: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16], dtype=pl.FP32)
