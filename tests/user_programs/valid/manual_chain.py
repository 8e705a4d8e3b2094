# A manual scope with an explicit TaskId chain: producer, two consumers that both wait for it,
# and a join waiting for both; a task outside the scope reads the result.
import nanopass.dsl as pl


@pl.program
class ManualChain:
    @pl.function(type=pl.FunctionType.AIV)
    def produce(self, src: pl.Tensor[[16, 16], pl.FP32],
                dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def combine(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
                dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        p = pl.create_tensor([16, 16], dtype=pl.FP32)
        l = pl.create_tensor([16, 16], dtype=pl.FP32)
        r = pl.create_tensor([16, 16], dtype=pl.FP32)
        j = pl.create_tensor([16, 16], dtype=pl.FP32)
        with pl.manual_scope():
            p, t0 = pl.submit(self.produce, x, p)
            l, t1 = pl.submit(self.produce, p, l, deps=[t0])
            r, t2 = pl.submit(self.produce, p, r, deps=[t0])
            j, t3 = pl.submit(self.combine, l, r, j, deps=[t1, t2])
        y = self.combine(j, x, y)
        return y
