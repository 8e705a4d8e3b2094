# deps=[r] where r = pl.submit(...) is bound to one name: r is the whole (result, task_id) tuple
# (reference-surface.md section 1), not a TaskId; the existing compiler refuses a tuple there too.
# expect: 25:38: error: 'r' is the whole tuple
# where: the r inside deps=[r] (31 spaces, "deps=[" then r: column 38)
import nanopass.dsl as pl


@pl.program
class SubmitTupleInDeps:
    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32], mid: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
            out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            r = pl.submit(self.copy, x, mid)
            mid = r[0]
            # use r[1] (or r[-1]), the TaskId, in deps=
            out, t = pl.submit(self.copy, mid, out,
                               deps=[r])
        return out
