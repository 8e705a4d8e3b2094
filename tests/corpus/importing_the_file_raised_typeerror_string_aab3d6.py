# fuzz: branch_result: duplicate: duplicate 't = self.make(x, a)'; module: module constant K_NEW = 'text', used in orch_branch
# expect: 8:30: error: importing the file raised TypeError: string indices must be integers, not 'tuple'
import nanopass.dsl as pl
K_NEW = 'text'

class BranchResult:

    def orch_branch(self) -> K_NEW[[16, 16], pl.FP32]:
        pass
