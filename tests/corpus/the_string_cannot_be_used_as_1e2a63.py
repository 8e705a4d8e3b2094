# fuzz: branch_result: shape: shape [16, 16] -> [16, '16']
# expect: 10:35: error: the string '16' cannot be used as a value here
import nanopass.dsl as pl

@pl.program
class BranchResult:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_branch(self) -> pl.Tensor[[16, 16], pl.FP32]:
        a = pl.create_tensor([16, '16'], dtype=pl.FP32)
