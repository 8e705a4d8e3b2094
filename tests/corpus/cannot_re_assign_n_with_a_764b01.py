# fuzz: create_init: rename: rename acc -> n everywhere in orch_create
# expect: 10:9: error: cannot re-assign 'n' with a different type: was pl.Scalar[pl.INT64], got pl.Tensor[[32, 32], pl.FP32]
import nanopass.dsl as pl

@pl.program
class CreateInit:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_create(self, n: pl.Scalar[pl.INT64]) -> pl.Tensor[[32], pl.INT32]:
        n = pl.create_tensor([32, 32], dtype=pl.FP32, init_value=0.0)
