# fuzz: war_next_iteration: replace: replace '16' by 'pl.range(4)'
# expect: 7:53: error: importing the file raised RuntimeError: pl.range is DSL syntax: it is compiled, not called from Python
import nanopass.dsl as pl

class WarNextIteration:

    def orch_war_next_iteration(self) -> pl.Tensor[[pl.range(4), 16], pl.FP32]:
        pass
