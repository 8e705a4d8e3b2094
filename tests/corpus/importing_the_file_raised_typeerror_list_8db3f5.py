# fuzz: loop_scalar: module: module constant K_NEW = [16, 16], used in orch_loop; shape: shape [64, 64] -> [64, None]
# expect: 8:28: error: importing the file raised TypeError: list indices must be integers or slices, not _Annotation
import nanopass.dsl as pl
K_NEW = [16, 16]

class LoopScalar:

    def orch_loop(self, y: K_NEW[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        pass
