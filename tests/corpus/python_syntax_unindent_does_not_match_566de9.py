# fuzz: dynamic_dims: indent: tab on line 12
# expect: 5:16: error: Python syntax error: unindent does not match any outer indentation level
class DynamicDims:
	@pl.function(type=pl.FunctionType.AIV)
    def row_op(
