# fuzz: explicit_carries: replace: replace 'pl' by 'f'{n}''; shape: shape (m, l) -> (m, 2 ** 70)
# expect: 4:20: error: Python syntax error: cannot assign to expression
class ExplicitCarries:
        for i, (m, 2 ** 70) in pl.range(n, init_values=(m0, l0)):
