# fuzz: war_branches: indent: split line 8
# expect: 4:14: error: Python syntax error: unexpected unindent
class WarBranches:
    @pl.funct
