# fuzz: group_mixed: shape: shape [16, 64] -> [None, 64]
# expect: 9:41: error: expected a number, got None
import nanopass.dsl as pl

@pl.program
class GroupMixed:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_groups(self, q: pl.Tensor[[None, 64], pl.FP16]) -> pl.Tensor[[16, 64], pl.FP32]:
        pass
