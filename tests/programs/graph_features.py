# Every construct the task graph draws: views, a TaskId array and its slots, a dummy barrier,
# a TaskId merged from an if, a scalar TaskId carry, an output the runtime allocates.
import nanopass.dsl as pl

T = pl.Tensor[[64, 64], pl.FP32]


@pl.program
class GraphFeatures:
    @pl.function(type=pl.FunctionType.AIV)
    def k_copy(self, src: pl.Tensor[[64, 64], pl.FP32], dst: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        t: pl.Tile[[64, 64], pl.FP32] = pl.load(src, [0, 0], [64, 64])
        r: pl.Tensor[[64, 64], pl.FP32] = pl.store(t, [0, 0], dst)
        return r

    @pl.function(type=pl.FunctionType.AIC)
    def k_acc(self, src: pl.Tensor[[64, 64], pl.FP32], acc: pl.InOut[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        t: pl.Tile[[64, 64], pl.FP32] = pl.load(src, [0, 0], [64, 64])
        r: pl.Tensor[[64, 64], pl.FP32] = pl.store(t, [0, 0], acc)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[64, 64], pl.FP32], acc: pl.InOut[pl.Tensor[[64, 64], pl.FP32]],
             out: pl.Out[pl.Tensor[[64, 64], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[64, 64], pl.FP32]:
        tmp: pl.Tensor[[64, 64], pl.FP32] = pl.create_tensor([64, 64], dtype=pl.FP32)
        tmp = self.k_copy(a, tmp)
        acc = self.k_acc(tmp, acc)
        with pl.manual_scope():
            ids = pl.array.create(2, pl.TASK_ID)
            for i in pl.parallel(2):
                acc, t = pl.submit(self.k_acc, a, acc, deps=[])
                ids[i] = t
            gate = pl.system.task_dummy(deps=[ids])
            last = None
            for j in pl.range(n):
                acc, last = pl.submit(self.k_acc, a, acc, deps=[gate, last])
            if n > 2:
                out, fin = pl.submit(self.k_copy, acc, out, deps=[last, ids[0]])
            else:
                out, fin = pl.submit(self.k_copy, a, out, deps=[])
            out, done = pl.submit(self.k_copy, acc, out, deps=[fin])
        return out
