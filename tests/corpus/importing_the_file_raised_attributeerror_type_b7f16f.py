# fuzz: group_mixed: decorator: decorate softmax with @pl.function(type=pl.FunctionType.Spmd)
# expect: 7:23: error: importing the file raised AttributeError: type object 'FunctionType' has no attribute 'Spmd'
import nanopass.dsl as pl

class GroupMixed:

    @pl.function(type=pl.FunctionType.Spmd)
    def softmax(self) -> pl.Tensor[[16, 16], pl.FP32]:
        pass
