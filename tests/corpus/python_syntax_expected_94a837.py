# fuzz: scope_escape: indent: split line 10
# expect: 4:11: error: Python syntax error: expected '('
class ScopeEscape:
    def ma
