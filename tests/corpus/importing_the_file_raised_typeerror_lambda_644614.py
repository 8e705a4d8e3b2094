# fuzz: group_mixed: module: module constant K_NEW = lambda: 3, used in orch_groups; replace: replace 'pl' by 'self.qk_matmul'
# expect: 8:6: error: importing the file raised TypeError: <lambda>() got an unexpected keyword argument 'type'
import nanopass.dsl as pl
K_NEW = lambda: 3

class GroupMixed:

    @K_NEW(type=pl.FunctionType.Orchestration)
    def orch_groups(self) -> pl.Tensor[[16, 64], pl.FP32]:
        pass
