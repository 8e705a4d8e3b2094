# class: runtime use_after_scope
# scopes grammar, size 4: 27's family, where each iteration of the pl.parallel(2) loop reads the buffer the iteration before made (`w, m = pl.submit(self.rd, w, deps=[m])`). The compiler warns ('iterations that may run at once need a buffer each, which the compiler makes before the block only for a loop ... whose iterations read no other iteration's buffer') and leaves the output in the scope; the host read after it uses the freed buffer. Also with the use in the next iteration of a loop around the manual scope instead of after it
#
# still open on branch att6 (land21 0b18d80):
# [warning buffer freed] line 15: [place_loop_allocations_before_scopes] 'w' is allocated anew in each iteration of a pl.parallel loop inside a `with` block and used after the block: the block frees what is allocated in it when it ends, and iterations that may run at once need a buffer each, which the compiler makes before the block only for a loop of constant bounds directly in the block whose iterations read no other iteration's buffer, so the use after the block may use a freed buffer
# n=0 c=0: [runtime use_after_scope] get (node 2) uses its tensor (buffer 0x10e00000) after the scope #2 that allocated it ended
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
            for i1 in pl.parallel(2):
                w, m = pl.submit(self.rd, w, deps=[m])
        h2 = pl.tensor.read(w, [1, 1])
        pl.tensor.write(sink, [2], h2)
        return a
