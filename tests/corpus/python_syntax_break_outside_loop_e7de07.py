# fuzz: tensor_ops: unsupported: insert 'break'
# expect: 4:5: error: Python syntax error: 'break' outside loop
class TensorOps:
    break
