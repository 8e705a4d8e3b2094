# fuzz: war_straight: decorator: decorate write with @pl.function(type=3)
# expect: 8:23: error: unsupported @pl.function type '3'
import nanopass.dsl as pl

@pl.program
class WarStraight:

    @pl.function(type=3)
    def write(self) -> pl.Tensor[[16, 16], pl.FP32]:
        pass
