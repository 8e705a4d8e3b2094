# fuzz: scalars: replace: replace 'self.blend(2.5, x, 0, True, y, 7)' by 'n if n else 1'
# expect: 10:13: error: conditional expressions (x if c else y) are not supported; use an if statement
import nanopass.dsl as pl

@pl.program
class Scalars:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_scalars(self) -> pl.Tensor[[64, 64], pl.FP16]:
        y = n if n else 1
