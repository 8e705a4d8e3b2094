# fuzz: group_mixed: unsupported: insert 'x, *y = a'; rename: rename p -> k everywhere in orch_groups
# expect: 10:9: error: cannot re-assign 'k' with a different type: was pl.Tensor[[64, 16], pl.FP16], got pl.Tensor[[16, 16], pl.FP32]
import nanopass.dsl as pl

@pl.program
class GroupMixed:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_groups(self, k: pl.Tensor[[64, 16], pl.FP16]) -> pl.Tensor[[16, 64], pl.FP32]:
        k = pl.create_tensor([16, 16], dtype=pl.FP32)
