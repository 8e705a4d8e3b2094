# fuzz: fence_array_updated: rename: rename one t -> _; module: module constant K_NEW = pl.FP16, used in work
# expect: 8:23: error: importing the file raised TypeError: 'DType' object is not subscriptable
import nanopass.dsl as pl
K_NEW = pl.FP16

class FenceArrayUpdated:

    def work(self) -> K_NEW[[16, 16], pl.FP32]:
        pass
