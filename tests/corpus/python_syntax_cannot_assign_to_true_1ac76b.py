# fuzz: runtime_outputs: shape: shape (fresh, tid) -> (fresh, True); indent: indent line 12
# expect: 4:16: error: Python syntax error: cannot assign to True
class RuntimeOutputs:
        fresh, True = pl.submit(self.produce, x)
