# class: refusal
# not in issue 21 (found on land21, seed 5): a copy nothing reads (`b = f` after the scope) counted as a use after the scope, so the output got a buffer made before the scope, whose host read in the scope no task's creation orders any more: refused
#
# found on branch land21:
# refused: prog.py:15:13: error: the host reads an element of 'f' in the manual scope where task rd (line 14) writes it: get_tensor_data waits only for the tensor's creator and its TensorMap producers, a task in a manual scope is neither, and no dependency can make a host access wait, so this access would race the task
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def rd(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.Out[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.manual_scope():
            m = None
            f, m = pl.submit(self.rd, x, deps=[m])
            v = pl.tensor.read(f, [0, 0])
            pl.tensor.write(sink, [0], v)
        b = f
        return a
