# fuzz: derive_manual_region: indent: split line 37; module: module constant K_NEW = pl.dynamic('Q'), used in orch_derive
# expect: 11:15: error: dynamic dimension 'Q' is not the extent of any tensor parameter
import nanopass.dsl as pl
K_NEW = pl.dynamic('Q')

@pl.program
class DeriveManualRegion:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_derive(self) -> pl.Tensor[[16, 16], pl.FP32]:
        acc = K_NEW
