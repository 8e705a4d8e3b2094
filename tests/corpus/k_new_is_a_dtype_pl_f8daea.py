# fuzz: basic: module: module constant K_NEW = pl.FP16, used in orch_basic
# expect: 11:13: error: 'K_NEW' is a dtype (pl.FP16); only int, float and bool values can be used here
import nanopass.dsl as pl
K_NEW = pl.FP16

@pl.program
class Basic:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_basic(self) -> pl.Tensor[[16, 16], pl.FP32]:
        d = K_NEW
