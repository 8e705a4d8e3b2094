# reference-surface.md section 3: a plain @pl.function whose body has pl.at blocks is the
# orchestration function; each CORE_GROUP block is outlined into an InCore kernel (name_hint, or
# <func>_incore_<k>) and replaced by one task: tensors read from outside are In, tensors written
# through pl.assemble/pl.store InOut, scalars scalar arguments; `as tid` binds the TaskId and
# deps= are explicit dependencies; no_dep_args= makes a captured tensor's slot NoDep.
import nanopass.dsl as pl


@pl.program
class AtBlocks:
    @pl.function
    def main(self, a: pl.Tensor[[32, 64], pl.FP32], b: pl.Tensor[[32, 64], pl.FP32],
             out: pl.InOut[pl.Tensor[[32, 64], pl.FP32]], scale: pl.Scalar[pl.FP32]) -> pl.Tensor[[32, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="sum_stage") as s_tid:
            out = pl.assemble(out, pl.add(a, b), [0, 0])
        with pl.at(level=pl.Level.CORE_GROUP, deps=[s_tid], no_dep_args=[b]):
            t = pl.mul(out, b)
            out = pl.assemble(out, pl.muls(t, scale), [0, 0])
        for i in pl.range(2):
            with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
                row = pl.load(a, [i * 16, 0], [16, 64])
                out = pl.store(row, [i * 16, 0], out)
        return out
