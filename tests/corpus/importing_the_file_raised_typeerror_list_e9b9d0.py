# fuzz: phase_fence: block: wrap 1 statement(s) in 'for i in pl.range(2):'; replace: replace 'pl.Tensor' by '[1, 2]'
# expect: 7:38: error: importing the file raised TypeError: list indices must be integers or slices, not tuple
import nanopass.dsl as pl

class PhaseFence:

    def orch_fence(self, y: pl.InOut[[1, 2][[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        pass
