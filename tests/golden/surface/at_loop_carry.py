# reference-surface.md "Other behaviour", Out/InOut inference from loop-carried stores: inside a
# pl.at block, a loop carries the outer tensor `out` (init_values=(out,)) and stores rows into the
# carry; the store writes `out` itself, so `out` is an InOut parameter of the outlined kernel (as a
# direct pl.store/pl.assemble makes it, section 3), not an In one. The loop's result `filled` is
# the same buffer: used after the block it is `out` as the task left it (no new result buffer).
import nanopass.dsl as pl


@pl.program
class AtLoopCarry:
    @pl.function(type=pl.FunctionType.AIV)
    def scale(self, src: pl.Tensor[[32, 64], pl.FP32], dst: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        t = pl.load(src, [0, 0], [32, 64])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function
    def main(self, a: pl.Tensor[[32, 64], pl.FP32], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
             res: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="fill_rows"):
            for i, (acc,) in pl.range(4, init_values=(out,)):
                row = pl.load(a, [i * 8, 0], [8, 64])
                acc = pl.store(row, [i * 8, 0], acc)
                filled = pl.yield_(acc)
        res = self.scale(filled, res)
        return res
