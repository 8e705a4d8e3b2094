# fuzz: create_init: unsupported: insert 'x, *y = a'; drop: drop 'shared, counts = self.accumulate(bias, shared, counts)'
# expect: 10:12: error: the target of an assignment must be a variable name
import nanopass.dsl as pl

@pl.program
class CreateInit:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_create(self) -> pl.Tensor[[32], pl.INT32]:
        x, *y = a
