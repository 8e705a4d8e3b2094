# fuzz: return_order: unsupported: insert 'try:'
# expect: 10:9: error: try statements are not supported
import nanopass.dsl as pl

@pl.program
class ReturnOrder:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_order(self) -> pl.Tensor[[8, 8], pl.FP32]:
        try:
            pass
        except Exception:
            pass
