# fuzz: runtime_outputs: module: module constant K_NEW = {}, used in produce; rename: rename parameter out -> _ everywhere
# expect: 8:26: error: importing the file raised KeyError: pl.Tensor[[16, 16], pl.FP32]
import nanopass.dsl as pl
K_NEW = {}

class RuntimeOutputs:

    def produce(self, y: K_NEW[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pass
