# class: runtime use_after_scope
# scopes grammar, size 5: 13 and 19 together, a create in `if n > 1` inside a pl.range(n) loop of a manual scope, read after the scope. The compiler warns (the buffers are made before the block 'only for an allocation run once in every iteration of a pl.range loop directly in the block') and leaves the create in the scope, which frees it. The same with a runtime output (`w, m = pl.submit(self.rd, v, deps=[m])`) for the create, with `with pl.scope()` for the manual scope, and with pl.parallel(2) for the loop
#
# still open on branch att6 (land21 0b18d80):
# [warning buffer freed] line 12: [place_loop_allocations_before_scopes] 'w' is allocated anew in each iteration of a loop inside a `with` block and used after the block, and an iteration still reads an earlier iteration's buffer (through 'w') when or after it allocates its own: the block frees what is allocated in it when it ends, and the compiler makes the buffers the iterations keep at once before the block only for an allocation run once in every iteration of a pl.range loop directly in the block that keeps a bounded number of them, so the use after the block may use a freed buffer
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
                if n > 1:
                    w = pl.create_tensor([4, 4], dtype=pl.FP32)
        h2 = pl.tensor.read(w, [1, 1])
        pl.tensor.write(sink, [2], h2)
        return a
