# fuzz: loop_scalar: move: move 'if steps > 2:'; replace: replace 'pl.Scalar' by '{}'
# expect: 7:32: error: importing the file raised KeyError: <DType.FP32: 'FP32'>
import nanopass.dsl as pl

class LoopScalar:

    def orch_loop(self, alpha: {}[pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        pass
