# class: refusal
# 33 with a task updating the created buffer in the loop: refused with a located error (the runtime fills a buffer only when it allocates it, and the runs' number is known only at run time) until branch runs22, which makes one buffer of max(n, 1) filled row blocks before the block, the number counted there, run j writing block j
#
# found on branch attack:
# nothing (fixed)
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def up(self, p0: pl.InOut[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p0

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], v: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.manual_scope():
            m = None
            for i1 in pl.range(n):
                w = pl.create_tensor([4, 4], dtype=pl.FP32, init_value=0.5)
                w, m = pl.submit(self.up, w, deps=[m])
        h2 = pl.tensor.read(w, [1, 1])
        pl.tensor.write(sink, [2], h2)
        return a
