# fuzz: basic: unsupported: insert 'a[0] = 1'; module: module constant K_NEW = 2 ** 80, used in kernel_add
# expect: 10:9: error: element writes 't[i, j] = v' are not supported for tensors; use pl.tensor.write(t, [i, j], v)
import nanopass.dsl as pl

@pl.program
class Basic:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_basic(self, a: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        a[0] = 1
