# fuzz: create_init: replace: replace '32' by '...'; module: module constant K_NEW = pl.FP16, used in orch_create
# expect: 9:41: error: expected a number, got Ellipsis
import nanopass.dsl as pl

@pl.program
class CreateInit:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_create(self) -> pl.Tensor[[...], pl.INT32]:
        pass
