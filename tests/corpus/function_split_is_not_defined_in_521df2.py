# fuzz: return_order: decorator: decorate split with @staticmethod; shape: shape [8, 8] -> [8, 3]
# expect: 10:16: error: function 'split' is not defined in program 'ReturnOrder'
import nanopass.dsl as pl

@pl.program
class ReturnOrder:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_order(self) -> pl.Tensor[[8, 8], pl.FP32]:
        b, c = self.split(a, x, y)
