# fuzz: loop_scalar: swap: swap arguments 0 and 1 of 'self.kernel_copy(y, acc)'; move: move 'if steps > 2:'
# expect: 9:5: error: 'orch_loop' declares a return type but does not end with a return statement
import nanopass.dsl as pl

@pl.program
class LoopScalar:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_loop(self) -> pl.Tensor[[64, 64], pl.FP32]:
        pass
