# reference-surface.md section 7: two orchestration functions in one program, `zeta` written
# before `alpha`. Each is compiled to its own file; the first by name (`alpha`) is the result's
# code, as the reference's build takes it. Kernel ids follow D5 per function: each numbers the
# kernels in its own order of first dispatch (zeta: scale 0, add 1; alpha: add 0, scale 1).
import nanopass.dsl as pl


@pl.program
class SeveralOrch:
    @pl.function(type=pl.FunctionType.AIV)
    def add(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
            out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        ta = pl.load(a, [0, 0], [16, 16])
        tb = pl.load(b, [0, 0], [16, 16])
        out = pl.store(pl.add(ta, tb), [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def scale(self, src: pl.Tensor[[16, 16], pl.FP32],
              dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def zeta(self, x: pl.Tensor[[16, 16], pl.FP32],
             y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.scale(x, t)
        y = self.add(t, x, y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def alpha(self, x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[[16, 16], pl.FP32],
              y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.create_tensor([16, 16], dtype=pl.FP32)
        t = self.add(x, w, t)
        y = self.scale(t, y)
        return y
