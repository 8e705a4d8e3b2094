# A pl.at block inside an inline function called twice: outlined once per call in the caller,
# the two copies one kernel under the hint's name.
import nanopass.dsl as pl


@pl.program
class AtInline:
    @pl.function(type=pl.FunctionType.Inline)
    def add_into(self, a: pl.Tensor[[16, 32], pl.FP32], b: pl.Tensor[[16, 32], pl.FP32],
                 out: pl.InOut[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="add_block"):
            out = pl.assemble(out, pl.add(a, b), [0, 0])
        return out

    @pl.function
    def main(self, a: pl.Tensor[[16, 32], pl.FP32], b: pl.Tensor[[16, 32], pl.FP32],
             y: pl.InOut[pl.Tensor[[16, 32], pl.FP32]], z: pl.InOut[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        y = self.add_into(a, b, y)
        z = self.add_into(y, a, z)
        return z
