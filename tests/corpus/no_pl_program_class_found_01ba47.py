# fuzz: derive_boxes: decorator: drop @pl.program of DeriveBoxes; shape: shape [32, 16] -> [16, 16, 16, 16, 16, 16, 16]
# expect: error: no @pl.program class found

