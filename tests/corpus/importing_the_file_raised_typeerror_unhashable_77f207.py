# fuzz: tid_sources: replace: replace 'pl.Tensor' by '{}'; dtype: dtype FP32 -> TaskId
# expect: 7:23: error: importing the file raised TypeError: unhashable type: 'list'
import nanopass.dsl as pl

class TidSources:

    def step(self) -> {}[[16, 16], pl.FP32]:
        pass
