# class: runtime use_after_scope
# scopes grammar, size 5: 24 with the loop inside another pl.range(2) loop of the manual scope: each iteration of the inner loop reads the buffer the iteration before made and the runtime allocates its own; the host read after the scope uses a freed buffer (the compiler warns). With `pl.submit(self.rd, v)` (reading no earlier iteration's buffer) it passes
#
# still open on branch att6 (land21 0b18d80):
# [warning buffer freed] line 16: [place_loop_allocations_before_scopes] 'w' is allocated anew in each iteration of a loop inside a `with` block and used after the block, and an iteration still reads an earlier iteration's buffer (through 'w') when or after it allocates its own: the block frees what is allocated in it when it ends, and the compiler makes the buffers the iterations keep at once before the block only for an allocation run once in every iteration of a pl.range loop directly in the block that keeps a bounded number of them, so the use after the block may use a freed buffer
# n=0 c=0: [runtime use_after_scope] get (node 4) uses its tensor (buffer 0x11200000) after the scope #2 that allocated it ended
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def rd(self, p0: pl.Tensor[[4, 4], pl.FP32], p1: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], v: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.manual_scope():
            m = None
            for i1 in pl.range(2):
                for i2 in pl.range(2):
                    w, m = pl.submit(self.rd, w, deps=[m])
        h3 = pl.tensor.read(w, [1, 1])
        pl.tensor.write(sink, [3], h3)
        return a
