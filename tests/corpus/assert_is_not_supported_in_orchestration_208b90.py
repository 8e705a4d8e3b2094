# fuzz: basic: unsupported: insert 'assert a'
# expect: 10:9: error: assert is not supported in orchestration functions
import nanopass.dsl as pl

@pl.program
class Basic:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_basic(self) -> pl.Tensor[[16, 16], pl.FP32]:
        assert a
