# fuzz: branch_result: module: module constant K_NEW = [16, 16], used in orch_branch
# expect: 10:45: error: a dimension must be an int or pl.dynamic(...), got a list
import nanopass.dsl as pl
K_NEW = [16, 16]

@pl.program
class BranchResult:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_branch(self) -> pl.Tensor[[16, K_NEW], pl.FP32]:
        pass
