# fuzz: create_init: dtype: dtype FP32 -> INT8; unsupported: insert 'raise ValueError('no')'
# expect: 10:69: error: init_value 0.25 is not an integer but the tensor dtype is INT8
import nanopass.dsl as pl

@pl.program
class CreateInit:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_create(self) -> pl.Tensor[[32], pl.INT32]:
        bias = pl.create_tensor([32, 32], dtype=pl.INT8, init_value=0.25)
