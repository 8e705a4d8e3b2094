# fuzz: war_manual_boundary: unsupported: insert 'for i, (p,) in pl.range(2, init_values=(a,)):'; indent: dedent line 20
# expect: 3:8: error: Python syntax error: unexpected indent
        return x
