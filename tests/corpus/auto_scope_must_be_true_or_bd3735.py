# fuzz: parallel_loop: decorator: decorate block with @pl.function(type=pl.FunctionType.Orchestration, auto_scope=1)
# expect: 8:65: error: auto_scope= must be True or False
import nanopass.dsl as pl

@pl.program
class ParallelLoop:

    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=1)
    def block(self) -> pl.Tensor[[128, 64], pl.FP32]:
        pass
