# fuzz: create_init: duplicate: duplicate 'acc = pl.create_tensor([32, 32], dtype=pl.FP32, init_valu...'; unsupported: insert 'for i in pl.range(3):'
# expect: 13:13: error: for ... else is not supported
import nanopass.dsl as pl

@pl.program
class CreateInit:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_create(self) -> pl.Tensor[[32], pl.INT32]:
        for i in pl.range(3):
            pass
        else:
            pass
