# fuzz: scalars: swap: swap parameters enabled and gain of orch_scalars; unsupported: insert 'continue'
# expect: 4:5: error: Python syntax error: 'continue' not properly in loop
class Scalars:
    continue
