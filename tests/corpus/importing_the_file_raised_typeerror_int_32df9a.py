# fuzz: fence_not_profitable: shape: shape [tids] -> [None]; replace: replace 'pl.function(type=pl.FunctionType.Orchestration)' by '-3'
# expect: 7:6: error: importing the file raised TypeError: 'int' object is not callable
import nanopass.dsl as pl

class FenceNotProfitable:

    @-3
    def orch_small(self) -> pl.Tensor[[16, 16], pl.FP32]:
        pass
