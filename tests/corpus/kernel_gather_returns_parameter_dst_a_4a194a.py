# fuzz: create_init: shape: shape [8, 32] -> [8]
# expect: 10:9: error: kernel 'gather' returns parameter 'dst', a pl.Tensor[[8], pl.FP16], as its pl.Tensor[[8, 32], pl.FP16] result
import nanopass.dsl as pl

@pl.program
class CreateInit:

    @pl.function(type=pl.FunctionType.AIV)
    def gather(self, dst: pl.Out[pl.Tensor[[8], pl.FP16]]) -> pl.Tensor[[8, 32], pl.FP16]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_create(self) -> pl.Tensor[[32], pl.INT32]:
        pass
