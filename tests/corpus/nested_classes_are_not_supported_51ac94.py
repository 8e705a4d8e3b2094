# fuzz: manual_phases: unsupported: insert 'class C:'
# expect: 11:9: error: nested classes are not supported
import nanopass.dsl as pl

@pl.program
class ManualPhases:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_phases(self) -> pl.Tensor[[256, 64], pl.FP32]:

        class C:
            pass
