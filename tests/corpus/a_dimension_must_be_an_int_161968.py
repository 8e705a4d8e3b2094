# fuzz: fence_array_carry: module: module constant K_NEW = 'text', used in orch_carry; rename: rename ids -> ids everywhere in orch_carry
# expect: 10:40: error: a dimension must be an int or pl.dynamic(...), got the string 'text'
import nanopass.dsl as pl
K_NEW = 'text'

@pl.program
class FenceArrayCarry:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_carry(self) -> pl.Tensor[[K_NEW, 16], pl.FP32]:
        pass
