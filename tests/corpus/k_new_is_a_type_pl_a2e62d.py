# fuzz: tid_sources: module: module constant K_NEW = pl.Tensor[[16, 16], pl.FP32], used in orch_tids
# expect: 11:16: error: 'K_NEW' is a type (pl.Tensor[[16, 16], pl.FP32]); only int, float and bool values can be used here
import nanopass.dsl as pl
K_NEW = pl.Tensor[[16, 16], pl.FP32]

@pl.program
class TidSources:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tids(self) -> pl.Tensor[[16, 16], pl.FP32]:
        seed = K_NEW
