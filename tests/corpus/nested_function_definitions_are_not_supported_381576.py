# fuzz: create_init: unsupported: insert 'def f():'; decorator: drop the decorator of accumulate
# expect: 11:9: error: nested function definitions are not supported
import nanopass.dsl as pl

@pl.program
class CreateInit:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_create(self) -> pl.Tensor[[32], pl.INT32]:

        def f():
            pass
