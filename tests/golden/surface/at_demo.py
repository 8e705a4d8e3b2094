# reference-surface.md section 3, the spec's program: a plain @pl.function whose pl.at blocks are
# outlined; `tmp`, defined in the first block and used in the second, leaves its kernel through a
# buffer the caller creates (ret0__out, batched into alloc_tensors); `out`, assembled into, is InOut;
# the second task allows early resolve (after its dependencies, before its submit).
import nanopass.dsl as pl


@pl.program
class AtDemo:
    @pl.function
    def main(self, a: pl.Tensor[[32, 64], pl.FP32], b: pl.Tensor[[32, 64], pl.FP32],
             out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="sum_stage") as s_tid:
            tmp = pl.add(a, b)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="mul_stage", deps=[s_tid], allow_early_resolve=True):
            out = pl.assemble(out, pl.mul(tmp, a), [0, 0])
        return out
