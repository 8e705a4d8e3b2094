# fuzz: tid_sources: dtype: dtype TASK_ID -> BF16; duplicate: duplicate 'tids[0] = prev'
# expect: 10:35: error: an array of BF16 has no host C++ type
import nanopass.dsl as pl

@pl.program
class TidSources:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tids(self) -> pl.Tensor[[16, 16], pl.FP32]:
        tids = pl.array.create(2, pl.BF16)
