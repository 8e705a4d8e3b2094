# fuzz: scope_escape: shape: shape (tmp, t1) -> (tmp, 1, t1)
# expect: 4:21: error: Python syntax error: invalid syntax. Maybe you meant '==' or ':=' instead of '='?
class ScopeEscape:
            tmp, 1, t1 = pl.submit(self.make, x, tmp)
