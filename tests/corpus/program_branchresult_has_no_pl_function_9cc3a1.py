# fuzz: branch_result: shape: shape [16, 16] -> [[16], 16]; decorator: drop the decorator of orch_branch
# expect: 6:1: error: program 'BranchResult' has no @pl.function(type=pl.FunctionType.Orchestration)
import nanopass.dsl as pl

@pl.program
class BranchResult:

    @pl.function(type=pl.FunctionType.AIV)
    def make(self) -> pl.Tensor[[16, 16], pl.FP32]:
        pass
