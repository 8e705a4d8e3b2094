# issue 21, class 4 (a manual scope's boundary; a lean pass dropped the edge): in a manual scope,
# `ch3 = None` is carried through `pl.parallel(2)` and each iteration sets it to its k_copy's
# TaskId, which the iteration's task also waits on. Every iteration of a pl.parallel loop starts
# its TaskId carries from the init (the yields fill one slot per iteration), so the two k_copy
# runs are unordered; runtime_order (issue 24's TaskId tracking, branch lean25) took the carry
# at the back edge for the previous iteration's TaskId, so the runs looked chained and the
# boundary edge of the k_add after the scope waited for the last run only (RAW on y0 with the
# first). Found by `fuzz_deps --tally --seed 60000` on main b0dc557 (94 failing manual programs,
# one cause), kept as generated.
# check: n=0
# A generated program (nanopass.tools.gen_programs).
import nanopass.dsl as pl


@pl.program
class Generated:
    @pl.function(type=pl.FunctionType.AIV)
    def k_copy(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o0: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o0

    @pl.function(type=pl.FunctionType.AIV)
    def k_add(self, a: pl.Tensor[[8, 8], pl.FP32], b: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o0: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o0

    @pl.function(type=pl.FunctionType.AIV)
    def k_acc(self, a: pl.Tensor[[8, 8], pl.FP32], acc: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o0: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], acc)
        return o0

    @pl.function(type=pl.FunctionType.AIV)
    def k_scale(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]], s: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o0: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o0

    @pl.function(type=pl.FunctionType.AIC)
    def k_mm(self, a: pl.Tensor[[8, 8], pl.FP32], b: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o0: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o0

    @pl.function(type=pl.FunctionType.AIV)
    def k_new(self, a: pl.Tensor[[8, 8], pl.FP32], s: pl.Scalar[pl.INT64], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o0: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o0

    @pl.function(type=pl.FunctionType.AIV)
    def k_two(self, a: pl.Tensor[[8, 8], pl.FP32], o1: pl.Out[pl.Tensor[[8, 8], pl.FP32]], o2: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> tuple[pl.Tensor[[8, 8], pl.FP32], pl.Tensor[[8, 8], pl.FP32]]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o0: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], o1)
        o1: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], o2)
        return o0, o1

    @pl.function(type=pl.FunctionType.AIV)
    def k_fscale(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]], s: pl.Scalar[pl.FP32]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o0: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o0

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x0: pl.Tensor[[8, 8], pl.FP32],
        x1: pl.Tensor[[8, 8], pl.FP32],
        y0: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
        y1: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
        big: pl.InOut[pl.Tensor[[32, 8], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        if n % 2 == 0:
            with pl.manual_scope():
                h_2 = pl.array.create(1, pl.TASK_ID)
                pass
                pass
                s1 = pl.tensor.slice(big, [8, 8], [8, 0])
                y0, tid_2 = pl.submit(self.k_add, s1, s1, y0, deps=[])  # site 2
                h_2[0] = tid_2
                ch3 = None
                for i4 in pl.parallel(2):
                    y0, tid_5 = pl.submit(self.k_copy, s1, y0, deps=[ch3, h_2])  # site 5
                    ch3 = tid_5
                for i6 in pl.parallel(2):
                    y1, tid_7 = pl.submit(self.k_copy, y1, y1, deps=[ch3, ])  # site 7
                    ch3 = tid_7
                t8: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32)
                t8, tid_9 = pl.submit(self.k_copy, x1, t8, deps=[ch3, ])  # site 9
        y0 = self.k_add(x0, x0, y0)
        return y0
