# fuzz: parallel_loop: replace: replace 'y' by '-3'; shape: shape [128, 64] -> [128]
# expect: 10:16: error: an orchestration function returns tensors (its Out/InOut parameters)
import nanopass.dsl as pl

@pl.program
class ParallelLoop:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_parallel(self) -> pl.Tensor[[128], pl.FP32]:
        return -3
