# class: refusal
# nested grammar, size 6 (`T M A1 range(if(A2))`), shrunk: t made at the top, assembled into a in `if i > 0` inside `for i in pl.range(n)`. Refused by the placement rule: whether the assemble runs is decided by i, not known where t is created (placed at the create, the view would be wrong for n = 1: the rows of a would take t's writes though no assemble ran). Write the create inside the if, or the assemble outside the loop
#
# a right refusal since branch place41 (the placement rule, docs/semantics.md):
# refused: prog.py:16:17: error: pl.assemble cannot make 't' a view of 'a' (the runtime cannot copy): 't' is created outside the pl.range loop and the if around the assemble, and whether the assemble runs is decided by 'i', which is not known where 't' is created
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def wb(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        t = pl.create_tensor([4, 4], dtype=pl.FP32)
        t = self.wb(x, t)
        for i in pl.range(n):
            if i > 0:
                a = pl.assemble(a, t, [4, 0])
        return a
