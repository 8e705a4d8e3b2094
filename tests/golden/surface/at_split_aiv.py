# reference-surface.md section 14: pl.split_aiv(n, mode=...) splits a kernel's loop across the AIV
# sub-cores; inside a pl.at block it is kernel code (the block, outlined, is one task: `a` In,
# `out` stored into InOut), while in the orchestration function itself it is a located error (no
# sub-cores on the host). pl.pipeline(..., stage=k) is an orchestration loop run in order: a
# sequential loop (the stage count pipelines a kernel's loop; `stage` is checked, not used).
import nanopass.dsl as pl


@pl.program
class Split:
    @pl.function
    def main(self, a: pl.Tensor[[32, 64], pl.FP32], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="halves"):
            for h in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
                row = pl.load(a, [h * 16, 0], [16, 64])
                out = pl.store(row, [h * 16, 0], out)
        for i in pl.pipeline(0, 4, 1, stage=2):
            with pl.at(level=pl.Level.CORE_GROUP):
                row = pl.load(a, [i * 8, 0], [8, 64])
                out = pl.store(row, [i * 8, 0], out)
        return out
