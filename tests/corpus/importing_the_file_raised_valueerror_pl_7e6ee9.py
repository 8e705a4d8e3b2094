# fuzz: tensor_ops: indent: split line 13; module: module constant K_NEW = pl.dynamic(3), used in orch_tensor_ops
# expect: 4:9: error: importing the file raised ValueError: pl.dynamic needs an identifier name, got 3
import nanopass.dsl as pl
K_NEW = pl.dynamic(3)
