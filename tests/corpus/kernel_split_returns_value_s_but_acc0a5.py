# fuzz: return_order: unsupported: insert 'return a'; shape: shape (b, c) -> (b,)
# expect: 16:9: error: kernel 'split' returns 2 value(s) but 1 name(s) receive them
import nanopass.dsl as pl

@pl.program
class ReturnOrder:

    @pl.function(type=pl.FunctionType.AIV)
    def split(self, a: pl.Tensor[[8, 8], pl.FP32], x: pl.Out[pl.Tensor[[8, 8], pl.FP32]], y: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> tuple[pl.Tensor[[8, 8], pl.FP32], pl.Tensor[[8, 8], pl.FP32]]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_order(self, a: pl.Tensor[[8, 8], pl.FP32]) -> pl.Tensor[[8, 8], pl.FP32]:
        x = pl.create_tensor([8, 8], dtype=pl.FP32)
        y = pl.create_tensor([8, 8], dtype=pl.FP32)
        b, = self.split(a, x, y)
