# class: runtime use_after_scope
# scopes grammar, size 4: 19 with init_value=0.5. The compiler warned (place_loop_allocations_before_scopes: 'one buffer made before the block would not start from the initial value in every iteration') and left the create in the manual scope, which frees it; the host read after the scope used the freed buffer. The same with `with pl.scope()` for the manual scope and with pl.parallel(2) or pl.range(2) for the loop. With a task writing the buffer in the loop (`w = self.up(w)`) the program is refused: every run must start from the fill in a buffer of its own made before the block
#
# found on branch att6 (land21 0b18d80), fixed since by branch uaf22:
# nothing (fixed)
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], v: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.manual_scope():
            m = None
            for i1 in pl.range(n):
                w = pl.create_tensor([4, 4], dtype=pl.FP32, init_value=0.5)
        h2 = pl.tensor.read(w, [1, 1])
        pl.tensor.write(sink, [2], h2)
        return a
