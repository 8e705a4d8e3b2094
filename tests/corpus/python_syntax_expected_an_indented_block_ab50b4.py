# fuzz: create_init: rename: rename one hist -> zz; indent: dedent line 6
# expect: 6:18: error: Python syntax error: expected an indented block after class definition on line 6
import nanopass.dsl as pl

@pl.program
class CreateInit:
