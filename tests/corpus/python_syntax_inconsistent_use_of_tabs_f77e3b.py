# fuzz: branch_result: shape: shape [16, 16] -> [0, 16, 16]; indent: tab on line 15
# expect: 5:1: error: Python syntax error: inconsistent use of tabs and spaces in indentation
class BranchResult:
        scale = 1
	    if mode == 0:
