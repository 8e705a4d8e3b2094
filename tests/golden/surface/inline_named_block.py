# A block with name_hint= read more than once: in an inline function called several times, and in
# a pl.unroll body (reference-surface.md sections 3, 5 and 14 give no example of either). The
# reference inlines and unrolls before it outlines, so each copy is outlined; copies that are the
# same kernel up to their variables' names are one kernel, named by the hint: `scale_into` serves
# the first two calls (its parameters are the caller's x, a, f and a, b, f), `copy_rows` both
# iterations (the iteration's constant `i` is its scalar argument). A copy into which the inline
# function substitutes another constant (0.5, where the other calls pass the parameter `f`) is
# another kernel: `scale_into_1`, the i-th shape met taking `<name>_<i>`. Kernel ids follow first
# dispatch (D5): scale_into 0, scale_into_1 1, copy_rows 2.
import nanopass.dsl as pl


@pl.program
class InlineNamed:
    @pl.function(type=pl.FunctionType.Inline)
    def scaled(self, src: pl.Tensor[[16, 16], pl.FP32], s: pl.Scalar[pl.FP32],
               acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="scale_into"):
            t = pl.muls(src, s)
            acc = pl.assemble(acc, t, [0, 0])
        return acc

    @pl.function
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], f: pl.Scalar[pl.FP32],
             a: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
             b: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        a = self.scaled(x, f, a)
        b = self.scaled(a, f, b)
        for i in pl.unroll(2):
            a = self.scaled(b, 0.5, a)
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="copy_rows"):
                rows = pl.load(a, [i * 8, 0], [8, 16])
                b = pl.store(rows, [i * 8, 0], b)
        return b
