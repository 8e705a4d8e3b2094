# merge_cells_into_chains once merged a cell that a host fence also reads (the write of y0 after
# the loop's manual scopes waits for the writers before it through it), leaving the fence on an
# undeclared cell (an internal error in remap_output_aliases; found by
# test_semantic_properties' manual programs, a generated program with the dependencies
# fuzz_deps derives).
# check: n=0
# check: n=2
# check: n=3
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
        for i0 in pl.parallel(1):
            for i1 in pl.parallel(1):
                y0, tid2 = pl.submit(self.k_copy, pl.no_dep(x0), y0, deps=[])
            y0, tid3 = pl.submit(self.k_copy, pl.no_dep(x0), y0, deps=[])
            y0, tid4 = pl.submit(self.k_copy, pl.no_dep(x0), y0, deps=[tid3])
            y0, tid5 = pl.submit(self.k_copy, pl.no_dep(x0), y0, deps=[tid3])
        if n > 1:
            for w6 in pl.range(n):
                with pl.manual_scope():
                    y0, tid_7 = pl.submit(self.k_copy, x0, y0, deps=[])  # site 7
                    y1, tid_8 = pl.submit(self.k_scale, x0, y1, n, deps=[])  # site 8
        pl.tensor.write(y0, [0, 0], 0.5)
        y0 = self.k_add(x1, x0, y0)
        s_big = pl.tensor.slice(big, [8, 8], [0, 0])
        y0 = self.k_add(s_big, x0, y0)
        return y0
