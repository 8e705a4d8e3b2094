# A manual scope whose join is a user dummy task (pl.system.task_dummy) waiting for two branches;
# the last task waits for the dummy only.
import nanopass.dsl as pl


@pl.program
class DummyJoin:
    @pl.function(type=pl.FunctionType.AIV)
    def work(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def merge(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
              dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        a = pl.create_tensor([16, 16], dtype=pl.FP32)
        b = pl.create_tensor([16, 16], dtype=pl.FP32)
        with pl.manual_scope():
            a, ta = pl.submit(self.work, x, a)
            b, tb = pl.submit(self.work, x, b)
            join = pl.system.task_dummy(deps=[ta, tb])
            out, tm = pl.submit(self.merge, a, b, out, deps=[join])
        return out
