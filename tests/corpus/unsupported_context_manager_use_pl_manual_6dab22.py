# fuzz: manual_phases: module: module constant K_NEW = pl.Tensor[[16, 16], pl.FP32], used in orch_phases
# expect: 10:14: error: unsupported context manager: use pl.manual_scope(), pl.scope(), pl.at(), pl.spmd() or pl.cluster()
import nanopass.dsl as pl

@pl.program
class ManualPhases:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_phases(self) -> pl.Tensor[[256, 64], pl.FP32]:
        with K_NEW:
            pass
