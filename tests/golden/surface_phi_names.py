# reference-surface.md "Other behaviour", snapshot / phi temporary names (reference-behaviour.md
# sections 7.3, 7.4, 11.1): an if's results are named at the if, before its branches, so a result
# takes the user's name (`m`, `src`) and a branch's own value its SSA name (`m__ssa_v0`,
# `m__ssa_v1`); a result whose name is already taken (`scale`, defined before the if) keeps its SSA
# name (`scale__phi_v2`). A tensor result starts as the first external tensor (`Tensor src =
# ext_a;`). A rebound loop carry is named by its raw result name (`acc__rv_v2`), and a TaskId
# read from an array slot is a snapshot under the user's name (`PTO2TaskId p = ids[1];`).
import nanopass.dsl as pl


@pl.program
class PhiNames:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], rows: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
             flag: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        scale = 1
        if flag > 0:
            src = a
            m = flag + 1
        else:
            src = b
            m = flag - 1
            scale = 2
        out = self.k(src, out)
        acc = a
        for i in pl.range(m * scale):
            t = pl.create_tensor([16, 16], dtype=pl.FP32)
            t = self.k(acc, t)
            acc = t
        with pl.manual_scope():
            ids = pl.array.create(2, pl.TASK_ID)
            for j in pl.range(2):
                half = pl.slice(rows, [16, 16], [j * 16, 0])
                half, tid = pl.submit(self.k, acc, half)
                ids[j] = tid
            p = ids[1]
            out, last = pl.submit(self.k, acc, out, deps=[p])
        return out
