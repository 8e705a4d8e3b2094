# An inline function called twice: its scratch tensor is created once per call site, its dump tag
# follows the scratch into both of its tasks.
import nanopass.dsl as pl


@pl.program
class InlineSteps:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Inline)
    def two_steps(self, src: pl.Tensor[[16, 16], pl.FP32],
                  dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        scratch = pl.create_tensor([16, 16], dtype=pl.FP32)
        pl.dump_tag(scratch)
        scratch = self.step(src, scratch)
        dst = self.step(scratch, dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def drive(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
              z: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.two_steps(x, y)
        z = self.two_steps(y, z)
        return z
