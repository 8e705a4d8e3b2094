# fuzz: phase_fence: shape: shape (out, t) -> (out, t, 16)
# expect: 4:25: error: Python syntax error: cannot assign to literal here. Maybe you meant '==' instead of '='?
class PhaseFence:
                out, t, 16 = pl.submit(self.produce, x, i, out)
