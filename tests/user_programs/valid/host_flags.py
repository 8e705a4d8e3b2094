# Host reads and writes: a flag read before a task, a value written for the task, a result
# element read after it and written back; subscript reads.
import nanopass.dsl as pl


@pl.program
class HostFlags:
    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, flags: pl.Tensor[[4], pl.INT32], scale: pl.Scalar[pl.INT32],
             out: pl.InOut[pl.Tensor[[2, 8], pl.INT32]]) -> pl.Tensor[[2, 8], pl.INT32]:
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, flags: pl.InOut[pl.Tensor[[4], pl.INT32]], out: pl.InOut[pl.Tensor[[2, 8], pl.INT32]],
             e: pl.Scalar[pl.INT32]) -> pl.Tensor[[2, 8], pl.INT32]:
        first = pl.tensor.read(flags, 1)
        pl.tensor.write(flags, [2], e)
        pl.tensor.write(out, [0, 7], first + e)
        out = self.fill(flags, first, out)
        last = out[1, 7]
        pl.tensor.write(out, [1, 0], last * 2)
        if last > 3:
            out = self.fill(flags, last, out)
        return out
