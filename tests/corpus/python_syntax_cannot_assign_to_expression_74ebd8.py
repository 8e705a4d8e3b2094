# fuzz: explicit_carries: shape: shape (m_out, l_out) -> (m_out, -1)
# expect: 4:20: error: Python syntax error: cannot assign to expression here. Maybe you meant '==' instead of '='?
class ExplicitCarries:
            m_out, -1 = pl.yield_(m2, l2)
