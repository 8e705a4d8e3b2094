# fuzz: war_loop_then_writer: module: module constant K_NEW = 1.5, used in orch_war_loop_then_writer; block: unwrap 'for i in pl.range(n):'
# expect: 15:23: error: parameter 'src' of 'read' is a tensor but the argument is a pl.Scalar[pl.FP32]
import nanopass.dsl as pl
K_NEW = 1.5

@pl.program
class WarLoopThenWriter:

    @pl.function(type=pl.FunctionType.AIV)
    def read(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_war_loop_then_writer(self) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.read(K_NEW, y)
