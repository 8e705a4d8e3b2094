# fuzz: tid_sources: module: module constant K_NEW = -4, used in orch_tids
# expect: 10:9: error: only kernel calls, pl.submit, pl.yield_ and pl.spmd_submit can be unpacked into several names
import nanopass.dsl as pl

@pl.program
class TidSources:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tids(self) -> pl.Tensor[[16, 16], pl.FP32]:
        y, first = K_NEW
