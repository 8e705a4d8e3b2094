# The second spellings of operations: pl.tensor.create (pl.create_tensor), pl.tensor.assemble
# (pl.assemble), and pl.system.task_invalid() as a TaskId carried into a manual scope's first
# submit (no dependency) and then replaced by a real one, and pl.array.update_element (arr[i] = v).
import nanopass.dsl as pl


@pl.program
class SecondSpellings:
    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(src, [0, 0], [16, 16])
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], dst)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def fold(self, big: pl.Tensor[[32, 16], pl.FP32], out: pl.Out[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        t: pl.Tile[[32, 16], pl.FP32] = pl.load(big, [0, 0], [32, 16])
        o: pl.Tensor[[32, 16], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        part = pl.tensor.create([16, 16], dtype=pl.FP32)
        big = pl.tensor.create([32, 16], dtype=pl.FP32, init_value=0)
        with pl.manual_scope():
            prev = pl.system.task_invalid()
            tids = pl.array.create(2, pl.TASK_ID)
            for i in pl.range(2):
                part, t = pl.submit(self.fill, a, part, deps=[prev])
                prev = t
                tids = pl.array.update_element(tids, i, t)
            part, last = pl.submit(self.fill, a, part, deps=[tids])
        big = pl.tensor.assemble(big, part, [16, 0])
        out = self.fold(big, out)
        return out
