# fuzz: runtime_outputs: duplicate: duplicate 'out = self.produce(fresh, out)'; shape: shape (fresh, tid) -> (fresh, None)
# expect: 4:16: error: Python syntax error: cannot assign to None
class RuntimeOutputs:
        fresh, None = pl.submit(self.produce, x)
