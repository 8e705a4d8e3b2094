# issue 21, class 3: k_fscale reads y in iterations 0 and 2 of a loop, each run updating (InOut)
# the output k_new allocates anew in that iteration; the write of y after the loop waited for the
# last run of k_fscale only, as if each run waited for the one before (the "chained" runs of one
# site that rewrite one buffer): a runtime output made in the loop is a new buffer every
# iteration, as a pl.create_tensor there is, so the runs are not chained and iteration 0's read
# raced the write (WAR; found by fuzz_deps --tally --seed 40000, program seed 42848, reduced).
# check: n=0
import nanopass.dsl as pl


@pl.program
class Found:
    @pl.function(type=pl.FunctionType.AIV)
    def k_new(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def k_upd(self, a: pl.Tensor[[8, 8], pl.FP32], acc: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
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
        for i in pl.range(3):
            r, tid = pl.submit(self.k_new, x, deps=[])
            if i % 2 == 0:
                r = self.k_upd(y, r)
        y = self.k_new(x, y)
        return y
