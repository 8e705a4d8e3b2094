# class: runtime use_after_scope
# not in issue 21 (18's family, written for the fix): a create_tensor in the loop, written by a task of each iteration and carried out of the manual scope
#
# found on branch land21:
# n=1 c=0: [runtime use_after_scope] dummy (node 3) uses argument 0 (buffer 0x10a00000) after the scope #2 that allocated it ended
# n=1 c=0: [runtime use_after_scope] set (node 4) uses its tensor (buffer 0x10a00000) after the scope #2 that allocated it ended
# n=2 c=0: [runtime use_after_scope] dummy (node 6) uses argument 0 (buffer 0x10c00000) after the scope #2 that allocated it ended
# n=2 c=0: [runtime use_after_scope] set (node 7) uses its tensor (buffer 0x10c00000) after the scope #2 that allocated it ended
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def wr(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.Out[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.manual_scope():
            for i, (p,) in pl.range(n, init_values=(b,)):
                t = pl.create_tensor([8, 4], dtype=pl.FP32)
                t, q = pl.submit(self.wr, x, t)
                r = pl.yield_(t)
        pl.tensor.write(r, [1, 2], 4.0)
        return a
