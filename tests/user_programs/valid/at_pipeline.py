# pl.at blocks in a plain @pl.function: two named stages chained by a TaskId, a third unnamed one
# with no_dep_args, a value computed in one block and used by the next.
import nanopass.dsl as pl


@pl.program
class AtPipeline:
    @pl.function
    def main(self, a: pl.Tensor[[32, 64], pl.FP32], b: pl.Tensor[[32, 64], pl.FP32],
             out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="sum_stage") as s_tid:
            tmp = pl.add(a, b)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="mul_stage", deps=[s_tid], allow_early_resolve=True):
            out = pl.assemble(out, pl.mul(tmp, a), [0, 0])
        with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[b]):
            out = pl.assemble(out, pl.add(out, b), [0, 0])
        return out
