# fuzz: tensor_ops: unsupported: insert 'break'
# expect: 4:4: error: Python syntax error: 'break' outside loop
class TensorOps:
    break
