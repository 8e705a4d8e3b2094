# fuzz: tid_sources: module: module constant K_NEW = -4, used in step; module: module constant K_NEW = (4,), used in orch_tids
# expect: 8:23: error: importing the file raised TypeError: tuple indices must be integers or slices, not _Annotation
import nanopass.dsl as pl
K_NEW = (4,)

class TidSources:

    def step(self, y: K_NEW[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pass
