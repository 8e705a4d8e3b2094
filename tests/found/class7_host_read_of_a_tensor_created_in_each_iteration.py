# issue 21, class 7: a tensor created anew in every iteration of a loop around a manual scope was
# taken for the buffer the earlier iteration's task wrote (a create killed no fact), so the host
# read of it in the scope was refused as racing that task ("Still open" 9c; fuzz_deps --tally
# --seed 100, program seed 2151, reduced).
# check: n=0
# check: n=1
# check: n=2
# check: n=3
import nanopass.dsl as pl


@pl.program
class Found:
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
        for w in pl.range(n):
            with pl.manual_scope():
                t: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=0)
                h = pl.tensor.read(t, [0, 0])
                pl.tensor.write(y, [0, 0], h)
                t, tid = pl.submit(self.upd, x, t, deps=[])
        return y
