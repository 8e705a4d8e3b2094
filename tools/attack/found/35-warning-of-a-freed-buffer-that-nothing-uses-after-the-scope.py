# class: warning buffer freed
# scopes grammar, size 4: a create with init_value in a loop of a manual scope, in a loop; nothing reads `w` after the scope (the next iteration rebinds it first, and nothing follows the outer loop), yet the compiler warns that 'w' is 'used after the block' and 'the use after the block may use a freed buffer'. The runs pass; the warning is spurious (the same with `with pl.scope()` for the manual scope, or pl.parallel(2) for the inner loop)
#
# still open on branch att6 (land21 0b18d80):
# [warning buffer freed] line 12: [place_loop_allocations_before_scopes] 'w' is created with an initial value in a loop inside a `with` block and used after the block: the block frees what is allocated in it when it ends, and one buffer made before the block would not start from the initial value in every iteration, so the use after the block may use a freed buffer
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], v: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        for i1 in pl.range(n):
            with pl.manual_scope():
                m = None
                for i2 in pl.range(2):
                    w = pl.create_tensor([4, 4], dtype=pl.FP32, init_value=0.5)
        return a
