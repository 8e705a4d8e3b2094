# fuzz: branch_result: replace: replace 'mode == 0' by '-3'; indent: split line 22
# expect: 10:12: error: an if condition must be a comparison or another bool expression, got pl.Scalar[pl.INDEX]
import nanopass.dsl as pl

@pl.program
class BranchResult:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_branch(self) -> pl.Tensor[[16, 16], pl.FP32]:
        if -3:
            pass
