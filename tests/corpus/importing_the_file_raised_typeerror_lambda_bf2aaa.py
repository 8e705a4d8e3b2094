# fuzz: branch_result: module: module constant K_NEW = lambda: 3, used in orch_branch; unsupported: insert 'return a'
# expect: 8:6: error: importing the file raised TypeError: <lambda>() takes 0 positional arguments but 1 was given
import nanopass.dsl as pl
K_NEW = lambda: 3

class BranchResult:

    @K_NEW
    def orch_branch(self) -> pl.Tensor[[16, 16], pl.FP32]:
        pass
