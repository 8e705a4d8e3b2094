# reference-surface.md sections 3 and 5: a pl.at block inside an Inline function. The reference
# inlines first, then outlines, so the block of each call site becomes a kernel of the caller,
# `<caller>_incore_<k>` (k counting the caller's outlined blocks): the first call's block reads x
# and writes y (InOut), the second reads y and writes z. `t`, which the block defines and the
# inline function's next statement reads, leaves through a buffer the caller creates (ret<i>__out);
# the inline function's locals are renamed `<name>_inline<k>`.
import nanopass.dsl as pl


@pl.program
class InlineAt:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Inline)
    def add_then_step(self, src: pl.Tensor[[16, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
                      dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.add(src, src)
            acc = pl.assemble(acc, t, [0, 0])
        dst = self.step(t, dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def drive(self, x: pl.Tensor[[16, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
              y: pl.Out[pl.Tensor[[16, 16], pl.FP32]], z: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.add_then_step(x, acc, y)
        z = self.add_then_step(y, acc, z)
        return z
