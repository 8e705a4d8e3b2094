# fuzz: tid_sources: module: module constant K_NEW = {}, used in orch_tids
# expect: 11:17: error: 'K_NEW' is a dict; only int, float and bool values can be used here
import nanopass.dsl as pl
K_NEW = {}

@pl.program
class TidSources:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tids(self) -> pl.Tensor[[16, 16], pl.FP32]:
        empty = K_NEW
