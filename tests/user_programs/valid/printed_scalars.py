# pypto.program: PrintedScalars
# Printed IR with scalar casts, a bool and a uint8 scalar, an and-condition and floor division.
import nanopass.dsl as pl

@pl.program
class PrintedScalars:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def blend(gain: pl.Scalar[pl.FP32], x: pl.Tensor[[64, 64], pl.FP16], row: pl.Scalar[pl.INT64], enabled: pl.Scalar[pl.BOOL], y: pl.InOut[pl.Tensor[[64, 64], pl.FP16]], tag: pl.Scalar[pl.UINT8]) -> pl.Tensor[[64, 64], pl.FP16]:
        t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [row, 0], [16, 64], [16, 64], target_memory=pl.Mem.Vec)
        r: pl.Tensor[[64, 64], pl.FP16] = pl.tile.store(t, [row, 0], y)
        return r
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def orch(self, x: pl.Tensor[[64, 64], pl.FP16], y: pl.InOut[pl.Tensor[[64, 64], pl.FP16]], gain: pl.Scalar[pl.FP32], count: pl.Scalar[pl.INT32], enabled: pl.Scalar[pl.BOOL], tag: pl.Scalar[pl.UINT8]) -> pl.Tensor[[64, 64], pl.FP16]:
        quarter: pl.Scalar[pl.FP32] = gain * 0.25
        rows: pl.Scalar[pl.INDEX] = pl.cast(count, pl.INDEX) % 4
        for i in pl.range(rows):
            y: pl.Tensor[[64, 64], pl.FP16] = self.blend(quarter, x, i * 16, enabled, y, tag)
        if pl.cast(count, pl.INDEX) >= 3 and not enabled:
            y: pl.Tensor[[64, 64], pl.FP16] = self.blend(1.5, x, pl.cast(count, pl.INDEX) // 3 % 4 * 16, True, y, 3)
        return y
