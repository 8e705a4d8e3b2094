# fuzz: graph_features: replace: replace 'pl.array.create' by ''text''
# expect: 10:15: error: unsupported function call "'text'(2, pl.TASK_ID)"
import nanopass.dsl as pl

@pl.program
class GraphFeatures:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self) -> pl.Tensor[[64, 64], pl.FP32]:
        ids = 'text'(2, pl.TASK_ID)
