# fuzz: return_order: unsupported: insert 'import os'; block: wrap 3 statement(s) in 'with pl.manual_scope():'
# expect: 10:9: error: import statements are not allowed in an orchestration function
import nanopass.dsl as pl

@pl.program
class ReturnOrder:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_order(self) -> pl.Tensor[[8, 8], pl.FP32]:
        import os
