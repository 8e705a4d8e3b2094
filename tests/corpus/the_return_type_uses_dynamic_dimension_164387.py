# fuzz: array_carry_across_scope: rename: rename out -> prev everywhere in orch_1811; replace: replace '64' by 'pl.dynamic('M')'
# expect: 9:28: error: the return type uses dynamic dimension 'M', which is not the extent of any tensor parameter
import nanopass.dsl as pl

@pl.program
class ArrayCarryAcrossScope:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_1811(self) -> pl.Tensor[[64, pl.dynamic('M')], pl.FP32]:
        pass
