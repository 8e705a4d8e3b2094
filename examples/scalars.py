# Scalar parameters of several dtypes, scalar arithmetic and comparisons on the host, and
# scalar task arguments: floats are bit-copied with to_u64, everything else cast to uint64_t,
# and all scalars follow all tensors in a task's argument list (D4).
import nanopass.dsl as pl

BLOCK = 16


@pl.program
class Scalars:
    @pl.function(type=pl.FunctionType.AIV)
    def blend(
        self,
        gain: pl.Scalar[pl.FP32],
        x: pl.Tensor[[64, 64], pl.FP16],
        row: pl.Scalar[pl.INT64],
        enabled: pl.Scalar[pl.BOOL],
        y: pl.InOut[pl.Tensor[[64, 64], pl.FP16]],
        tag: pl.Scalar[pl.UINT8],
    ) -> pl.Tensor[[64, 64], pl.FP16]:
        t: pl.Tile[[16, 64], pl.FP16] = pl.load(x, [row, 0], [16, 64])
        r: pl.Tensor[[64, 64], pl.FP16] = pl.store(t, [row, 0], y)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_scalars(
        self,
        x: pl.Tensor[[64, 64], pl.FP16],
        y: pl.InOut[pl.Tensor[[64, 64], pl.FP16]],
        gain: pl.Scalar[pl.FP32],
        count: pl.Scalar[pl.INT32],
        enabled: pl.Scalar[pl.BOOL],
        tag: pl.Scalar[pl.UINT8],
    ) -> pl.Tensor[[64, 64], pl.FP16]:
        half_gain = gain * 0.5
        last = count - 1
        y = self.blend(half_gain, x, last * BLOCK, enabled, y, tag)
        y = self.blend(2.5, x, 0, True, y, 7)
        if count >= 2 and enabled:
            y = self.blend(gain, x, (count // 2) % 4 * BLOCK, not enabled, y, tag)
        return y
