# fuzz: fence_array_updated: rename: rename y -> work everywhere in work; replace: replace 'pl.range(8)' by '0'
# expect: 10:18: error: a for loop must iterate over pl.range(...), pl.parallel(...), pl.pipeline(...), pl.unroll(...), pl.while_(...) or pl.spmd(...)
import nanopass.dsl as pl

@pl.program
class FenceArrayUpdated:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_updated(self) -> pl.Tensor[[16, 16], pl.FP32]:
        for j in 0:
            pass
