# fuzz: war_straight: rename: rename parameter y -> z in the signature; indent: split line 10
# expect: 4:23: error: Python syntax error: invalid syntax. Perhaps you forgot a comma?
class WarStraight:
    @pl.function(type=p
l.FunctionType.AIV)
