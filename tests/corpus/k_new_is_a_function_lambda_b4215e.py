# fuzz: group_mixed: module: module constant K_NEW = lambda: 3, used in orch_groups; decorator: decorate orch_groups with @pl.function(type=pl.FunctionType.Orchestration)
# expect: 11:13: error: 'K_NEW' is a function ('<lambda>'); only int, float and bool values can be used here
import nanopass.dsl as pl
K_NEW = lambda: 3

@pl.program
class GroupMixed:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_groups(self) -> pl.Tensor[[16, 64], pl.FP32]:
        o = K_NEW
