# fuzz: basic: module: module constant K_NEW = (4,), used in orch_basic; indent: dedent line 20
# expect: 4:5: error: Python syntax error: 'return' outside function
class Basic:
    return d
