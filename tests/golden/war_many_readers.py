# Many readers before one writer: the writer waits for all of them, each once.
import nanopass.dsl as pl


@pl.program
class WarManyReaders:
    @pl.function(type=pl.FunctionType.AIV)
    def read(
        self,
        src: pl.Tensor[[16, 16], pl.FP32],
        dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def write(
        self,
        src: pl.Tensor[[16, 16], pl.FP32],
        dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_war_many_readers(
        self,
        x: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        z: pl.Tensor[[16, 16], pl.FP32],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        a = pl.create_tensor([16, 16], dtype=pl.FP32)
        b = pl.create_tensor([16, 16], dtype=pl.FP32)
        a = self.read(x, a)
        b = self.read(x, b)
        y = self.read(x, y)
        x = self.write(z, x)
        x = self.write(z, x)
        return x
