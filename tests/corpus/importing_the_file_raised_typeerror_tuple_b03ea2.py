# fuzz: fence_array_updated: rename: rename tids -> x everywhere in orch_updated; module: module constant K_NEW = (4,), used in work
# expect: 8:23: error: importing the file raised TypeError: tuple indices must be integers or slices, not tuple
import nanopass.dsl as pl
K_NEW = (4,)

class FenceArrayUpdated:

    def work(self, x: K_NEW[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        pass
