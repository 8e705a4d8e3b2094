# fuzz: loop_scalar: unsupported: insert 'assert a'; shape: shape [64, 64] -> [0, 64, 64]
# expect: 9:39: error: a dimension must be positive, got 0
import nanopass.dsl as pl

@pl.program
class LoopScalar:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_loop(self) -> pl.Tensor[[0, 64, 64], pl.FP32]:
        pass
