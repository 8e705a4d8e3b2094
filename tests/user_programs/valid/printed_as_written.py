# pypto.program: PrintedTwoKernels
# The existing compiler's printed IR of a user's program as written (kernels without self,
# level=/role=, pl.tile.* bodies with pl.Mem spaces), import line changed to nanopass.dsl.
import nanopass.dsl as pl

@pl.program
class PrintedTwoKernels:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def scale(x: pl.Tensor[[32, 32], pl.FP32], f: pl.Scalar[pl.FP32], y: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        t: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [32, 32], [32, 32], target_memory=pl.Mem.Vec)
        r: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.muls(t, f)
        out: pl.Tensor[[32, 32], pl.FP32] = pl.tile.store(r, [0, 0], y)
        return out
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def accum(x: pl.Tensor[[32, 32], pl.FP32], acc: pl.InOut[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        a: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [32, 32], [32, 32], target_memory=pl.Mem.Vec)
        b: pl.Tile[[32, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(acc, [0, 0], [32, 32], [32, 32], target_memory=pl.Mem.Vec)
        out: pl.Tensor[[32, 32], pl.FP32] = pl.tile.store(pl.tile.add(a, b), [0, 0], acc)
        return out
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orch(self, x: pl.Tensor[[32, 32], pl.FP32], acc: pl.InOut[pl.Tensor[[32, 32], pl.FP32]], gain: pl.Scalar[pl.FP32], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[32, 32], pl.FP32]:
        tmp: pl.Tensor[[32, 32], pl.FP32] = pl.create_tensor([32, 32], dtype=pl.FP32)
        tmp: pl.Tensor[[32, 32], pl.FP32] = self.scale(x, gain, tmp)
        for i in pl.range(n):
            acc: pl.Tensor[[32, 32], pl.FP32] = self.accum(tmp, acc)
        return acc
