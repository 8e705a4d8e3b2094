# reference-surface.md S3: pl.tensor.read / pl.tensor.write on the host. An index of a 1-D tensor
# may be one integer (`pl.tensor.read(flags, 1)` is `[1]`); a read is
# `uint32_t indices_<result>[n] = {...}; T <result> = get_tensor_data<T>(...)`, a write sits in a
# block of its own with its index array named after the DSL variable (`indices_out`, not
# `indices_ext_out`). The read of `out` after the task waits for it (the runtime's
# get_tensor_data), and so does the write after it (set_tensor_data); the task reads what the
# host wrote before it.
import nanopass.dsl as pl


@pl.program
class HostAccess:
    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, flags: pl.Tensor[[4], pl.INT32], scale: pl.Scalar[pl.INT32],
             out: pl.InOut[pl.Tensor[[2, 8], pl.INT32]]) -> pl.Tensor[[2, 8], pl.INT32]:
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, flags: pl.InOut[pl.Tensor[[4], pl.INT32]], out: pl.InOut[pl.Tensor[[2, 8], pl.INT32]],
             e: pl.Scalar[pl.INT32]) -> pl.Tensor[[2, 8], pl.INT32]:
        first = pl.tensor.read(flags, 1)
        pl.tensor.write(flags, 2, e)
        pl.tensor.write(out, [0, 7], first + e)
        out = self.fill(flags, first, out)
        last = pl.tensor.read(out, [1, 7])
        pl.tensor.write(out, [1, 0], last)
        return out
