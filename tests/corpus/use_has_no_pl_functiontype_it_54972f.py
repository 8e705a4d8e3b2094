# fuzz: return_order: block: wrap 2 statement(s) in 'for i in pl.parallel(2):'; decorator: decorate use with @pl.function()
# expect: 14:15: error: 'use' is an Opaque function (no type=, type=pl.FunctionType.Opaque or @pl.jit.opaque): it cannot be dispatched as a task
import nanopass.dsl as pl

@pl.program
class ReturnOrder:

    @pl.function()
    def use(self) -> pl.Tensor[[8, 8], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_order(self) -> pl.Tensor[[8, 8], pl.FP32]:
        out = self.use(b, c, out)
