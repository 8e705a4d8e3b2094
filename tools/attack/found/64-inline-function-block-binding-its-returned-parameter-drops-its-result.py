# class: trace-mismatch
# by hand (blocks grammar, atom inl): an Inline function whose pl.at block binds its parameter q and returns q, called `t = self.inl0(x, t)`: the block's kernel has no Out, so the task after the call reads the create, and does not wait for the block (with the model's Out left out: value task, hazard RAW); `u = self.inl0(x, t)` is right
#
# found on main de34d9e (session 37), fixed in session 37:
# n=0 c=0: [trace-mismatch] task ib (line 12, #0) has 2 tensor parameters, the recorded submit 1
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def k0(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Inline)
    def inl0(self, p: pl.Tensor[[8, 4], pl.FP32], q: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], cnt: pl.InOut[pl.Tensor[[4], pl.INT64]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint='ib'):
            q = pl.add(p, p)
        return q

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], cnt: pl.InOut[pl.Tensor[[4], pl.INT64]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        t = pl.create_tensor([8, 4], dtype=pl.FP32)
        t = self.inl0(x, t, sink, cnt, n, c)
        a = self.k0(t, a)
        return a
