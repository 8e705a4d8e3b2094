# fuzz: branch_result: unsupported: insert 'self.k'; module: module constant K_NEW = 2 ** 80, used in orch_branch
# expect: 11:13: error: integer 1208925819614629174706176 does not fit in 64 bits
import nanopass.dsl as pl
K_NEW = 2 ** 80

@pl.program
class BranchResult:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_branch(self) -> pl.Tensor[[16, 16], pl.FP32]:
        a = K_NEW
