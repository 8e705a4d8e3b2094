# fuzz: parallel_loop: drop: drop 'return y'; swap: swap arguments 0 and 2 of 'pl.parallel(16, rows, 0)'
# expect: 10:40: error: a loop step must be positive
import nanopass.dsl as pl

@pl.program
class ParallelLoop:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_parallel(self, rows: pl.Scalar[pl.INT64]) -> pl.Tensor[[128, 64], pl.FP32]:
        for r in pl.parallel(16, rows, 0):
            pass
