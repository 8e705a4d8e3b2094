# issue 21, class 7: a value made in a `with pl.at(...)` block inside a manual scope and host-read
# in that scope was refused ("no dependency can make a host access wait"): the block's output
# buffer is made by the caller, so the block's task is not its creator, and nothing in a manual
# scope is published. The read now waits through a dummy task that waits for the block's task and
# creates one element, which the host reads first: get_tensor_data waits for that element's
# creator (tools/attack/found/21).
# check: n=0
# check: n=1
import nanopass.dsl as pl


@pl.program
class Found:
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.Tensor[[8, 4], pl.FP32],
        sink: pl.InOut[pl.Tensor[[16], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[16], pl.FP32]:
        with pl.manual_scope():
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="blk1"):
                f = pl.muls(x, 2.0)
            v = pl.tensor.read(f, [0, 0])
            pl.tensor.write(sink, [0], v)
        return sink
