# fuzz: scalars: unsupported: insert 'global g'; dtype: dtype INT32 -> INDEX
# expect: 10:9: error: global is not supported
import nanopass.dsl as pl

@pl.program
class Scalars:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_scalars(self) -> pl.Tensor[[64, 64], pl.FP16]:
        global g
