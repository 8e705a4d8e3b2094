# fuzz: create_init: replace: replace 'True' by 'tid'
# expect: 10:71: error: manual_dep= must be True or False
import nanopass.dsl as pl

@pl.program
class CreateInit:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_create(self) -> pl.Tensor[[32], pl.INT32]:
        shared = pl.create_tensor([32, 32], dtype=pl.FP32, manual_dep=tid)
