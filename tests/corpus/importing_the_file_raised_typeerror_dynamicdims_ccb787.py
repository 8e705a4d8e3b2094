# fuzz: dynamic_dims: dtype: dtype INT64 -> FP16; replace: replace 'pl.function' by 'lambda: 0'
# expect: 7:6: error: importing the file raised TypeError: DynamicDims.<lambda>() got an unexpected keyword argument 'type'
import nanopass.dsl as pl

class DynamicDims:

    @(lambda: 0)(type=pl.FunctionType.AIV)
    def fill(self) -> pl.Tensor[[M, 128], pl.FP32]:
        pass
