# Inside a pl.at block, a loop carried on an outer tensor stores one row block per iteration: the
# tensor is the kernel's InOut parameter, and the loop result is used after the block.
import nanopass.dsl as pl


@pl.program
class AtLoopCarry:
    @pl.function(type=pl.FunctionType.AIV)
    def consume(self, src: pl.Tensor[[32, 16], pl.FP32],
                dst: pl.Out[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        return dst

    @pl.function
    def main(self, a: pl.Tensor[[32, 16], pl.FP32], out: pl.InOut[pl.Tensor[[32, 16], pl.FP32]],
             fin: pl.Out[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="fill_rows"):
            for i, (acc,) in pl.range(4, init_values=(out,)):
                row = pl.load(a, [i * 8, 0], [8, 16])
                acc = pl.store(row, [i * 8, 0], acc)
                res = pl.yield_(acc)
        fin = self.consume(res, fin)
        return fin
