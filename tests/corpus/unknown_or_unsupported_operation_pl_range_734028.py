# fuzz: ping_pong: unsupported: insert 'x = pl.range(3)'; block: wrap 1 statement(s) in 'with pl.scope():'
# expect: 10:13: error: unknown or unsupported operation 'pl.range' in an orchestration function
import nanopass.dsl as pl

@pl.program
class PingPong:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_ping_pong(self) -> pl.Tensor[[32, 32], pl.FP32]:
        x = pl.range(3)
