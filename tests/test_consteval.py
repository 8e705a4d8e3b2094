"""One constant evaluator for both readers of a program file (``passes/frontend/consteval.py``).

The front end evaluates the constants of annotations and DSL arguments (``pl.Tensor[[N * 2, 16],
...]``); the static loader (``--no-exec``) evaluates module-level assignments instead of running
them. They used to do it by two sets of rules. ``TABLE`` shows where those differed and what the
one rule gives now: Python's arithmetic (``+ - * / // % ** << >> & | ^``, unary ``- + ~``) over
numbers, integers of at most 256 bits (an integer exponent or shift count over 256 is refused
before it is computed), no complex results, and every exception Python raises refused. Each
reader keeps its wording: the front end's is a located ``UserError``, the static loader's the
reason of an ``Unevaluated`` name ("'N' is assigned ...").
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from nanopass.errors import UserError
from nanopass.passes.frontend import consteval
from nanopass.passes.frontend.program import ProgramParser
from nanopass.passes.frontend.source import ProgramSource, Unevaluated
from nanopass.static_loader import ModuleScope, load_programs_static

NAMES = {"N": 16, "T": (1, 2), "S": "x"}  # module-level names both readers see

# expression | front end before | --no-exec before | front end now | --no-exec now
# ("N" stands for a value; "!" for an uncaught exception: a crash; other text is the refusal.)
TABLE = [
    # operators the front end did not have
    ("4 | 2", "expected a constant, got '4 | 2'", "6", "6", "6"),
    ("6 & 3", "expected a constant, got '6 & 3'", "2", "2", "2"),
    ("6 ^ 3", "expected a constant, got '6 ^ 3'", "5", "5", "5"),
    ("~5", "expected a constant, got '~5'", "-6", "-6", "-6"),
    ("+5", "expected a constant, got '+5'", "5", "5", "5"),
    # the size guard: the static loader's (results too), now both
    ("2 ** 300", "cannot evaluate constant '2 ** 300': exponent too large",
     "is assigned '2 ** 300' at line 1, a number too large to compute",
     "cannot evaluate constant '2 ** 300': a number too large to compute",
     "is assigned '2 ** 300' at line 1, a number too large to compute"),
    ("2 ** 256", str(2**256), "is assigned '2 ** 256' at line 1, a number too large to compute",
     "cannot evaluate constant '2 ** 256': a number too large to compute",
     "is assigned '2 ** 256' at line 1, a number too large to compute"),
    ("(2 ** 200) * (2 ** 200)", str(2**400),
     "is assigned '2 ** 200 * 2 ** 200' at line 1, a number too large to compute",
     "cannot evaluate constant '2 ** 200 * 2 ** 200': a number too large to compute",
     "is assigned '2 ** 200 * 2 ** 200' at line 1, a number too large to compute"),
    ("1 << 256", str(2**256), "is assigned '1 << 256' at line 1, a number too large to compute",
     "cannot evaluate constant '1 << 256': a number too large to compute",
     "is assigned '1 << 256' at line 1, a number too large to compute"),
    # the exponent guard concerns integers only: a float power is computed (an overflow is refused)
    ("1.5 ** 10000", "cannot evaluate constant '1.5 ** 10000': exponent too large",
     "is assigned '1.5 ** 10000' at line 1, a number too large to compute",
     "cannot evaluate constant '1.5 ** 10000': the result is too large for a float",
     "is assigned '1.5 ** 10000' at line 1, which raises OverflowError"),
    ("1.001 ** 1000", "cannot evaluate constant '1.001 ** 1000': exponent too large",
     "is assigned '1.001 ** 1000' at line 1, a number too large to compute", repr(1.001**1000), repr(1.001**1000)),
    # a negative shift count is Python's ValueError, not a large exponent
    ("1 << -1", "cannot evaluate constant '1 << -1': exponent too large",
     "is assigned '1 << -1' at line 1, which raises ValueError",
     "cannot evaluate constant '1 << -1': negative shift count",
     "is assigned '1 << -1' at line 1, which raises ValueError"),
    # a complex result: the front end returned it (and init_value= then crashed on it)
    ("(-8) ** 0.5", repr((-8) ** 0.5), "is assigned '(-8) ** 0.5' at line 1, a complex number",
     "cannot evaluate constant '(-8) ** 0.5': a complex number",
     "is assigned '(-8) ** 0.5' at line 1, a complex number"),
    # Python's TypeError (a float in a bitwise operation) crashed both
    ("1.5 << 2", "!TypeError", "!TypeError",
     "cannot evaluate constant '1.5 << 2': unsupported operand type(s) for <<: 'float' and 'int'",
     "is assigned '1.5 << 2' at line 1, which raises TypeError"),
    ("1.5 | 2", "expected a constant, got '1.5 | 2'", "!TypeError",
     "cannot evaluate constant '1.5 | 2': unsupported operand type(s) for |: 'float' and 'int'",
     "is assigned '1.5 | 2' at line 1, which raises TypeError"),
    ("~1.5", "expected a constant, got '~1.5'", "!TypeError",
     "cannot evaluate constant '~1.5': bad operand type for unary ~: 'float'",
     "is assigned '~1.5' at line 1, which raises TypeError"),
    # the same before and now
    ("1 // 0", "cannot evaluate constant '1 // 0': integer division or modulo by zero",
     "is assigned '1 // 0' at line 1, which raises ZeroDivisionError",
     "cannot evaluate constant '1 // 0': integer division or modulo by zero",
     "is assigned '1 // 0' at line 1, which raises ZeroDivisionError"),
    ("1 << 255", str(2**255), str(2**255), str(2**255), str(2**255)),
    ("-7 // 2", "-4", "-4", "-4", "-4"),  # Python's floor (the C rule is for the orchestration body's ints)
    ("7 / 2", "3.5", "3.5", "3.5", "3.5"),
    ("2 ** -1", "0.5", "0.5", "0.5", "0.5"),
    ("True + 1", "2", "2", "2", "2"),
    ("N * 2", "32", "32", "32", "32"),
    # what else a constant may be differs on purpose: the front end wants numbers, a module
    # constant may be a string, None, a tuple or list (and a dtype or pl.dynamic, not shown)
    ("'a' * 3", "expected a number, got the string 'a'", "is assigned \"'a' * 3\" at line 1: arithmetic needs numbers",
     "expected a number, got the string 'a'", "is assigned \"'a' * 3\" at line 1: arithmetic needs numbers"),
    ("None", "expected a number, got None", "None", "expected a number, got None", "None"),
    ("[16]", "expected a constant, got '[16]'", "[16]", "expected a constant, got '[16]'", "[16]"),
    ("T", "'T' is a tuple; a constant number is needed here", "(1, 2)",
     "'T' is a tuple; a constant number is needed here", "(1, 2)"),
    ("U", "'U' is not a constant defined at module level", "depends on 'U', which is not defined before line 1",
     "'U' is not a constant defined at module level", "depends on 'U', which is not defined before line 1"),
    ("not 1", "expected a constant, got 'not 1'", "is assigned 'not 1' at line 1, which is not a constant expression",
     "expected a constant, got 'not 1'", "is assigned 'not 1' at line 1, which is not a constant expression"),
    ("1j", "expected a number, got the complex number 1j", "is assigned a complex literal at line 1",
     "expected a number, got the complex number 1j", "is assigned a complex literal at line 1"),
]


def front_end(text: str) -> str:
    """What the front end makes of ``text`` where a constant is needed: the value or the message."""
    src = ProgramSource("P", "p.py", text, ast.parse("class P:\n    pass").body[0], dict(NAMES))
    try:
        return repr(consteval.constant_value(ProgramParser(src), ast.parse(text, mode="eval").body))
    except UserError as error:
        return error.message


def no_exec(text: str) -> str:
    """What ``--no-exec`` makes of ``X = text`` at module level: the value or the reason."""
    scope = ModuleScope()
    scope.names.update(NAMES)
    value = scope.evaluate(ast.parse(text, mode="eval").body)
    return value.reason if isinstance(value, Unevaluated) else repr(value)


@pytest.mark.parametrize("text, _fe_before, _static_before, fe_now, static_now", TABLE, ids=[r[0] for r in TABLE])
def test_both_readers_evaluate_constants_by_one_rule(text, _fe_before, _static_before, fe_now, static_now):
    assert front_end(text) == fe_now
    assert no_exec(text) == static_now


def test_the_table_shows_only_real_differences():
    """Every row but the last group changed something, and no reader crashes any more."""
    for text, fe_before, static_before, fe_now, static_now in TABLE:
        assert not fe_now.startswith("!") and not static_now.startswith("!"), text
    changed = [row[0] for row in TABLE if (row[1], row[2]) != (row[3], row[4])]
    assert changed == [row[0] for row in TABLE[:16]]


def test_both_readers_give_the_same_program_for_the_new_operators(tmp_path):
    from nanopass.loader import load_programs
    from nanopass.text import unparse

    path = tmp_path / "ops.py"
    path.write_text(textwrap.dedent("""\
        import nanopass.dsl as pl

        ROWS = (4 | 2) << 2
        MASK = ~ROWS & 0xFF


        @pl.program
        class Ops:
            @pl.function(type=pl.FunctionType.AIV)
            def k(self, a: pl.Tensor[[ROWS ^ 8, 16], pl.FP32]) -> None:
                pass

            @pl.function(type=pl.FunctionType.Orchestration)
            def orch(self, a: pl.Tensor[[16, 16], pl.FP32]) -> None:
                t = pl.create_tensor([16, 16], dtype=pl.FP32, init_value=MASK + 0.5)
                tids = pl.array.create(ROWS | 1, pl.TASK_ID)
                self.k(t)
        """))
    [imported], [static] = load_programs(str(path)), load_programs_static(str(path))
    text = unparse(static.surface(None), show_spans=True)
    assert text == unparse(imported.surface(None), show_spans=True)
    assert "(TensorType [(Int 16 INDEX) (Int 16 INDEX)] FP32)" in text  # ROWS ^ 8 = 24 ^ 8 = 16
    assert "(CreateTensor [(Int 16 INDEX) (Int 16 INDEX)] FP32 #f (Float 231.5 FP32))" in text
    assert "(CreateArray 25 TASK_ID)" in text
