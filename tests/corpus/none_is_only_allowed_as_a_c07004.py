# fuzz: manual_phases: move: move 'with pl.manual_scope():'; replace: replace 'phase' by 'None'
# expect: 10:16: error: None is only allowed as a TaskId value (x = None, deps=[None])
import nanopass.dsl as pl

@pl.program
class ManualPhases:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_phases(self) -> pl.Tensor[[256, 64], pl.FP32]:
        row = (None * N_BRANCHES + branch) * TILE_M
