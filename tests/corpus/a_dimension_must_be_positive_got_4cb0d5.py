# fuzz: group_mixed: shape: shape [16, 64] -> [16, -1]
# expect: 9:45: error: a dimension must be positive, got -1
import nanopass.dsl as pl

@pl.program
class GroupMixed:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_groups(self) -> pl.Tensor[[16, -1], pl.FP32]:
        pass
