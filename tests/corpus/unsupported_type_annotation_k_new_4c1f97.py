# fuzz: runtime_outputs: module: module constant K_NEW = 0, used in orch_outputs; shape: shape (fresh, tid) -> (fresh,)
# expect: 10:31: error: unsupported type annotation 'K_NEW'
import nanopass.dsl as pl
K_NEW = 0

@pl.program
class RuntimeOutputs:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_outputs(self) -> K_NEW:
        pass
