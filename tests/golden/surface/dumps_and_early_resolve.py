# reference-surface.md sections 8 and 11 on the task forms other than pl.submit (whose golden is
# surface_dumps.py): dumps=[...] and allow_early_resolve=True on pl.spmd_submit, a `with pl.spmd`
# region and a pl.at block. dumps= marks only that task (its dump line follows the argument adds);
# a pl.at block's dumps= names a tensor it captures. Early resolve makes a block a submit; on a
# direct call (pl.spmd_submit) it follows the dependencies and the launch spec, on a call through
# a launch function (the pl.spmd region) it precedes the dependencies (reference-behaviour.md 10.5).
import nanopass.dsl as pl


@pl.program
class Flags:
    @pl.function(type=pl.FunctionType.AIV)
    def blk(self, src: pl.Tensor[[16, 32], pl.FP32], dst: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 32], pl.FP32], mid: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
             out: pl.InOut[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:
        mid, g0 = pl.spmd_submit(self.blk, a, mid, core_num=4, dumps=[a], allow_early_resolve=True)
        with pl.spmd(2, deps=[g0], dumps=[mid], allow_early_resolve=True):
            out = pl.store(pl.load(mid, [0, 0], [16, 32]), [0, 0], out)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="scale", dumps=[out], allow_early_resolve=True):
            out = pl.assemble(out, pl.muls(out, 2.0), [0, 0])
        return out
