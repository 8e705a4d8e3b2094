# fuzz: branch_result: module: module constant K_NEW = None, used in orch_branch; drop: drop 'b = pl.create_tensor([16, 16], dtype=pl.FP32)'
# expect: 11:13: error: 'K_NEW' is None; only int, float and bool values can be used here
import nanopass.dsl as pl
K_NEW = None

@pl.program
class BranchResult:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_branch(self, mode: pl.Scalar[pl.INT32]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = K_NEW
