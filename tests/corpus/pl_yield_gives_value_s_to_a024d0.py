# fuzz: create_init: unsupported: insert 'a, b = pl.yield_(a)'
# expect: 10:16: error: pl.yield_ gives 1 value(s) to 2 name(s)
import nanopass.dsl as pl

@pl.program
class CreateInit:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_create(self) -> pl.Tensor[[32], pl.INT32]:
        a, b = pl.yield_(a)
