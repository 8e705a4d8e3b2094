# fuzz: create_init: unsupported: insert 'del a'
# expect: 10:9: error: del is not supported
import nanopass.dsl as pl

@pl.program
class CreateInit:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_create(self) -> pl.Tensor[[32], pl.INT32]:
        del a
