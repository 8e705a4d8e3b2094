# fuzz: parallel_loop: module: module constant K_NEW = [16, 16], used in orch_parallel
# expect: 11:33: error: 'K_NEW' is a list; only int, float and bool values can be used here
import nanopass.dsl as pl
K_NEW = [16, 16]

@pl.program
class ParallelLoop:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_parallel(self) -> pl.Tensor[[128, 64], pl.FP32]:
        for r in pl.parallel(0, K_NEW, 16):
            pass
