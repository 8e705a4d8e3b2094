# fuzz: create_init: dtype: dtype INT32 -> UINT16
# expect: 10:67: error: init_value -3 does not fit in UINT16
import nanopass.dsl as pl

@pl.program
class CreateInit:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_create(self) -> pl.Tensor[[32], pl.INT32]:
        hist = pl.create_tensor([32], dtype=pl.UINT16, init_value=-3)
