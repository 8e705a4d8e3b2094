# fuzz: group_mixed: module: module constant K_NEW = 'text', used in orch_groups; block: wrap 1 statement(s) in 'if n > 0:'
# expect: 11:13: error: 'K_NEW' is the string 'text'; only int, float and bool values can be used here
import nanopass.dsl as pl
K_NEW = 'text'

@pl.program
class GroupMixed:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_groups(self) -> pl.Tensor[[16, 64], pl.FP32]:
        p = K_NEW
