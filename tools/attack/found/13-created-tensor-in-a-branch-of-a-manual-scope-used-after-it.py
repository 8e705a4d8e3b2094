# class: runtime use_after_scope
# not in issue 21 (12's family, written for the fix): 08's create_tensor in an if branch inside a manual scope; hoist_scope_escapes moved only allocations directly in the scope
#
# found on branch land21:
# n=0 c=0: [runtime use_after_scope] set (node 1) uses its tensor (buffer 0x10a00000) after the scope #2 that allocated it ended
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.manual_scope():
            if c == 0:
                t = pl.create_tensor([4, 4], dtype=pl.FP32)
                w = t
        pl.tensor.write(w, [1, 2], 4.0)
        return a
