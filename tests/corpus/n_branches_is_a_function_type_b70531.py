# fuzz: manual_phases: module: module constant N_BRANCHES = 4 -> pl.FunctionType.AIV
# expect: 11:35: error: 'N_BRANCHES' is a function type (pl.FunctionType.AIV); only int, float and bool values can be used here
import nanopass.dsl as pl
N_BRANCHES = pl.FunctionType.AIV

@pl.program
class ManualPhases:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_phases(self) -> pl.Tensor[[256, 64], pl.FP32]:
        for branch in pl.parallel(N_BRANCHES):
            pass
