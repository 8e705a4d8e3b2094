# issue 21, class 7: a task's runtime output host-read in its manual scope and used after the
# scope was refused ("no dependency can make a host access wait"): the use after the scope makes
# its buffer one made before the scope (place_scope_escaping_outputs), so the task is not its
# creator, and nothing in a manual scope is published. The read now waits through a dummy task
# that waits for the task and creates one element, which the host reads first: get_tensor_data
# waits for that element's creator (tools/attack/found/RUNS.md, s90000370).
# check: n=0
# check: n=1
# check: n=2
# check: n=3
import nanopass.dsl as pl


@pl.program
class Found:
    @pl.function(type=pl.FunctionType.AIV)
    def make(self, a: pl.Tensor[[8, 8], pl.FP32], o: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        r: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], o)
        return r

    @pl.function(type=pl.FunctionType.AIV)
    def upd(self, a: pl.Tensor[[8, 8], pl.FP32], acc: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], acc)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.Tensor[[8, 8], pl.FP32],
        y: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        with pl.manual_scope():
            f, m = pl.submit(self.make, x)
            v = pl.tensor.read(f, [1, 2])
            pl.tensor.write(y, [0, 0], v)
        y = self.upd(f, y)
        return y
