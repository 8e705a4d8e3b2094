# fuzz: war_manual_boundary: rename: rename parameter x -> self in the signature; module: module constant K_NEW = {}, used in orch_war_manual_boundary
# expect: 5:40: error: Python syntax error: duplicate argument 'self' in function definition
class WarManualBoundary:

    def orch_war_manual_boundary(self, self: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[K_NEW, pl.FP32]:
        pass
