# fuzz: basic: unsupported: insert 'while n > 0:'; shape: shape [16, 16] -> [16]
# expect: 10:9: error: while loops are not supported; use for ... in pl.while_(init_values=...) with pl.cond, or pl.range
import nanopass.dsl as pl

@pl.program
class Basic:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_basic(self) -> pl.Tensor[[16, 16], pl.FP32]:
        while n > 0:
            pass
