# fuzz: hand_scopes: shape: shape [16, 16] -> [n, 16]
# expect: 7:39: error: importing the file raised NameError: name 'n' is not defined
import nanopass.dsl as pl

class HandScopes:

    def orch_hand(self) -> pl.Tensor[[n, 16], pl.FP32]:
        pass
