# reference-surface.md sections 8 and 11: pl.dump_tag(t), dumps=[...] and allow_early_resolve=True on pl.submit.
import nanopass.dsl as pl


@pl.program
class Dump:
    @pl.function(type=pl.FunctionType.AIV)
    def bump(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, inp: pl.Tensor[[16, 16], pl.FP32], mid: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
            spare: pl.Tensor[[16, 16], pl.FP32], fin: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
            last: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        mid = self.bump(inp, mid)
        pl.dump_tag(mid)
        pl.dump_tag(spare)
        fin = self.bump(mid, fin)
        last, t = pl.submit(self.bump, fin, last, dumps=[fin], allow_early_resolve=True)
        last, t2 = pl.submit(self.bump, mid, last, deps=[t], allow_early_resolve=True)
        return last
