# issue 21, class 5 (a false report of the value oracle, not a miscompile): part is created,
# written by wr's Out argument and assembled into rows 0..7 of big in each iteration of a loop
# inside a manual scope inside a loop, after another wr wrote those rows. The program as written
# (no placement) made part one buffer for the whole inner loop, so it tags wr's Out argument on it
# INOUT (an earlier iteration wrote it); the oracle took that tag for a read, and the read saw the
# previous iteration's part as written, the rows' writer when placed. A kernel reads what its
# parameters declare (In, InOut), not what the call-site tag orders (tools/values.py). Found by
# fuzz_deps --tally --seed 40000 (program seeds 40011, 40281, 40923, 41023, 41141, 41883, 42477),
# reduced.
# check: n=0
# check: n=1
# check: n=2
# check: n=3
import nanopass.dsl as pl


@pl.program
class Found:
    @pl.function(type=pl.FunctionType.AIV)
    def wr(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.Tensor[[8, 8], pl.FP32],
        big: pl.InOut[pl.Tensor[[32, 8], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[32, 8], pl.FP32]:
        for w in pl.range(2):
            with pl.manual_scope():
                last = None
                for i in pl.range(n):
                    rows = pl.tensor.slice(big, [8, 8], [0, 0])
                    rows, ta = pl.submit(self.wr, x, rows, deps=[last])
                    part: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32)
                    part, last = pl.submit(self.wr, x, part, deps=[ta])
                    big = pl.assemble(big, part, [0, 0])
        return big
