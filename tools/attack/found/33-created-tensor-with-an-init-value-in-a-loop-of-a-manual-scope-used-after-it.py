# class: runtime use_after_scope
# scopes grammar, size 4: 19 with init_value=0.5. The compiler warns (place_loop_allocations_before_scopes: 'one buffer made before the block would not start from the initial value in every iteration') and leaves the create in the manual scope, which frees it; the host read after the scope uses the freed buffer. The same with `with pl.scope()` for the manual scope and with pl.parallel(2) or pl.range(2) for the loop
#
# still open on branch att6 (land21 0b18d80):
# [warning buffer freed] line 11: [place_loop_allocations_before_scopes] 'w' is created with an initial value in a loop inside a `with` block and used after the block: the block frees what is allocated in it when it ends, and one buffer made before the block would not start from the initial value in every iteration, so the use after the block may use a freed buffer
# n=1 c=0: [runtime use_after_scope] get (node 1) uses its tensor (buffer 0x10c00000) after the scope #2 that allocated it ended
# n=2 c=0: [runtime use_after_scope] get (node 2) uses its tensor (buffer 0x10e00000) after the scope #2 that allocated it ended
# n=3 c=0: [runtime use_after_scope] get (node 3) uses its tensor (buffer 0x11000000) after the scope #2 that allocated it ended
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
