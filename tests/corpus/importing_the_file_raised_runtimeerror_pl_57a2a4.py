# fuzz: manual_phases: replace: replace 'pl.FP32' by 'pl.system.task_invalid()'; unsupported: insert 'x = (yield a)'
# expect: 7:51: error: importing the file raised RuntimeError: pl.system.task_invalid is DSL syntax: it is compiled, not called from Python
import nanopass.dsl as pl

class ManualPhases:

    def orch_phases(self) -> pl.Tensor[[256, 64], pl.system.task_invalid()]:
        pass
