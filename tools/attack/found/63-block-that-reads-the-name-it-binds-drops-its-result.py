# class: trace-mismatch
# surface grammar (every read-rebind block of seed 5750's run): `t = pl.add(t, x)` in a pl.at block (pl.spmd and pl.cluster alike, in or out of loops, Inline functions): the kernel reads t and has no Out for it, so the read after the block (the next iteration's too) sees the create, not the block's t; nanopass check agrees (the recorded task has the inputs t and x and no output)
#
# found on main de34d9e (session 37), fixed in session 37:
# n=0 c=0: [trace-mismatch] task blk1 (line 13, #0) has 3 tensor parameters, the recorded submit 2
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def k0(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], cnt: pl.InOut[pl.Tensor[[4], pl.INT64]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        t = pl.create_tensor([8, 4], dtype=pl.FP32, init_value=0.5)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint='blk1'):
            t = pl.add(t, x)
        a = self.k0(t, a)
        return a
