# Internal tensors: every pl.create_tensor of a block is allocated by one alloc_tensors call at
# the block's start (D8), with initial values and manual_dep; a create whose shape uses a value
# computed in the block stays where it is.
import nanopass.dsl as pl


@pl.program
class CreateInit:
    @pl.function(type=pl.FunctionType.AIV)
    def accumulate(
        self,
        src: pl.Tensor[[32, 32], pl.FP32],
        acc: pl.InOut[pl.Tensor[[32, 32], pl.FP32]],
        counts: pl.InOut[pl.Tensor[[32], pl.INT32]],
    ) -> tuple[pl.Tensor[[32, 32], pl.FP32], pl.Tensor[[32], pl.INT32]]:
        return acc, counts

    @pl.function(type=pl.FunctionType.AIV)
    def gather(
        self,
        src: pl.Tensor[[32, 32], pl.FP32],
        n: pl.Scalar[pl.INT64],
        dst: pl.Out[pl.Tensor[[8, 32], pl.FP16]],
    ) -> pl.Tensor[[8, 32], pl.FP16]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_create(
        self,
        src: pl.Tensor[[32, 32], pl.FP32],
        counts: pl.InOut[pl.Tensor[[32], pl.INT32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[32], pl.INT32]:
        acc = pl.create_tensor([32, 32], dtype=pl.FP32, init_value=0.0)
        bias = pl.create_tensor([32, 32], dtype=pl.FP32, init_value=0.25)
        hist = pl.create_tensor([32], dtype=pl.INT32, init_value=-3)
        shared = pl.create_tensor([32, 32], dtype=pl.FP32, manual_dep=True)
        acc, hist = self.accumulate(src, acc, hist)
        bias, counts = self.accumulate(acc, bias, counts)
        shared, counts = self.accumulate(bias, shared, counts)
        rows = n * 2
        small = pl.create_tensor([rows, 32], dtype=pl.FP16)
        small = self.gather(shared, rows, small)
        return counts
