# fuzz: fence_not_profitable: indent: empty the block of line 13
# expect: 12:39: error: Python syntax error: expected an indented block after function definition on line 11
# A whole-array dependency that is not worth a phase fence: 2 producers and 1 consumer per
# iteration of a 2-trip loop: 2*2 - (2+2) = 0 < 1, so the consumers keep their array fan-out.
import nanopass.dsl as pl


@pl.program
class FenceNotProfitable:
    @pl.function(type=pl.FunctionType.AIV)
    def work(
    ) -> pl.Tensor[[16, 16], pl.FP32]:
