# fuzz: hand_scopes: block: wrap 1 statement(s) in 'if n > 0:'; indent: split line 15
# expect: 4:18: error: Python syntax error: invalid syntax
class HandScopes:
 i in pl.range(2):
