# options: analyze_auto_scopes_for_deps=True
# Regions from constant slices: tasks on disjoint boxes of one buffer get no edge; a task on a box
# that overlaps an earlier write gets one; the edge from inside a loop to after it goes through a
# cell declared before the loop (the compiler's TaskId, hoisted across the loop scope).
import nanopass.dsl as pl


@pl.program
class DeriveBoxes:
    @pl.function(type=pl.FunctionType.AIV)
    def fill(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        y: pl.InOut[pl.Tensor[[8, 16], pl.FP32]],
    ) -> pl.Tensor[[8, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_boxes(
        self,
        x: pl.Tensor[[8, 16], pl.FP32],
        buf: pl.InOut[pl.Tensor[[32, 16], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[32, 16], pl.FP32]:
        top = pl.tensor.slice(buf, [8, 16], [0, 0])
        bottom = pl.tensor.slice(buf, [8, 16], [24, 0])
        middle = pl.tensor.slice(buf, [8, 16], [4, 0])
        top = self.fill(x, top)
        bottom = self.fill(x, bottom)
        for i in pl.range(n):
            middle = self.fill(x, middle)
        bottom = self.fill(x, bottom)
        top = self.fill(x, top)
        return buf
