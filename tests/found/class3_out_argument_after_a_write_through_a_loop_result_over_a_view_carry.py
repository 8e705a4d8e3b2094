# issue 21, class 3 (a loop carry's buffers; here a WAW the runtime leaves unordered): a loop of one iteration whose carry starts from a
# view (s, of the created g) yields the parameter y, so its result o is y; a task updates o
# (InOut), then a task writes y through an Out argument. derive_call_directions keyed what a
# carry may hold by the carry's root (s) but looked it up by the buffer under the view (g), so
# it missed that o may be y, took the second task for y's first writer and tagged its argument
# OUTPUT_EXISTING, which waits for no earlier writer (runtime-api.md section 11): the two writes
# of y raced. Found by test_semantic_properties on a helper's branch (the manual-program
# property), reduced.
# check: n=0
import nanopass.dsl as pl


@pl.program
class Found:
    @pl.function(type=pl.FunctionType.AIV)
    def k_copy(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
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
        y: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        g: pl.Tensor[[16, 8], pl.FP32] = pl.create_tensor([16, 8], dtype=pl.FP32)
        s = pl.tensor.slice(g, [8, 8], [0, 0])
        s = self.k_copy(x, s)
        for i, (p,) in pl.range(1, init_values=(s,)):
            o = pl.yield_(y)
        o = self.k_upd(x, o)
        y = self.k_copy(x, y)
        return y
