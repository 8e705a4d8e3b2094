# class: hazard RAW task>hread MA
# issue 21 class 1's mirror named there: get_tensor_data cannot see a write made in a manual scope (also MM: the read inside the scope)
#
# found on branch attack:
# n=0 c=0: [hazard RAW task>hread MA] RAW between task k0 (line 14, #0) and host read (line 15, #1) is not ordered
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def k0(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.manual_scope():
            m = None
            b, m = pl.submit(self.k0, a, b, deps=[m])
        v = pl.tensor.read(b, [0, 2])
        pl.tensor.write(sink, [1], v)
        return a
