# fuzz: explicit_carries: replace: replace '([16, 16], pl.FP32)' by 'n'; shape: shape (m2, l2) -> (16,)
# expect: 4:13: error: Python syntax error: cannot assign to literal
class ExplicitCarries:
            16, = self.update(x, m, l)
