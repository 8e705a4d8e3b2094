"""The front end's registry (``passes/frontend/registry.py``): DSL operations by name and position,
statement readers by ``ast`` class. A construct is added as a handler in its family's module
(``passes/frontend/ops/``); these tests hold the registry to its promises: no name registered twice,
every operation used by a program the test suites compile, an unknown ``pl.x`` a located error in
every position, and a new operation needing nothing but its registration.
"""

from __future__ import annotations

import ast
import importlib
import textwrap
from pathlib import Path

import pytest

from conftest import REPO

from nanopass.errors import UserError
from nanopass.languages import surface as S
from nanopass.languages.terms import BinOp
from nanopass.passes.frontend.names import dsl_call
from nanopass.passes.frontend.registry import (EXPRESSION, ITERATOR, OPS, REFUSED, STATEMENT, STATEMENTS, VALUE,
                                               RegistryError, describe_registry, dsl_op, refuse_op, statement)
from nanopass.passes.frontend.statements import UNSUPPORTED
from nanopass.static_loader import load_programs_static
from nanopass.text import unparse

importlib.import_module("nanopass.passes.frontend.context")  # registers every reader

# Programs that compile, and that the semantic tests run (the corpus is left out: most of it fails).
PROGRAM_DIRS = ["examples", "tests/programs", "tests/golden", "tests/semantics"]

HEADER = '''\
import nanopass.dsl as pl


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
'''
FIRST_BODY_LINE = HEADER.count("\n") + 1


def read(tmp_path: Path, body: str):
    """The surface program of ``HEADER`` + ``body`` (read without running it), or its UserError."""
    path = tmp_path / "prog.py"
    path.write_text(HEADER + textwrap.indent(textwrap.dedent(body), " " * 8))
    try:
        return load_programs_static(str(path))[0].surface(None)
    except UserError as error:
        return error


# -- no name twice -------------------------------------------------------------------------------


def test_every_spelling_names_one_operation():
    for spelling, op in OPS.items():
        assert spelling == op.name or spelling in op.aliases, spelling
        assert op.forms, f"pl.{op.name} has no form"
        assert not set(op.forms) & set(op.misplaced), f"pl.{op.name} is both read and refused in one position"
    names = [op.name for spelling, op in OPS.items() if spelling == op.name]
    aliases = [a for spelling, op in OPS.items() if spelling == op.name for a in op.aliases]
    assert len(set(names + aliases)) == len(names) + len(aliases)


def test_a_second_registration_raises_and_changes_nothing():
    before = {spelling: (op, dict(op.forms), dict(op.misplaced), op.aliases) for spelling, op in OPS.items()}
    statements_before = dict(STATEMENTS)
    refused_before = dict(REFUSED)
    refuse_op("while2_", "a refusal made for this test")

    def handler(*_args):
        raise AssertionError("never called")

    attempts = [
        lambda: dsl_op("tensor.reshape", VALUE)(handler),  # a form in the same position
        lambda: dsl_op("tensor.create", STATEMENT)(handler),  # an alias used as a name
        lambda: dsl_op("tensor.view", VALUE, aliases=("tensor.reshape",))(handler),  # an alias that is a name
        lambda: dsl_op("tensor.view", VALUE, aliases=("tensor.assemble",))(handler),  # another's alias
        lambda: dsl_op("submit", STATEMENT)(handler),  # where submit declares a refusal
        lambda: dsl_op("tensor.reshape", STATEMENT, misplaced={VALUE: "no"})(handler),  # a refusal where it reads
        lambda: statement(ast.While, ast.Assign)(handler),  # a statement class that has a reader
        lambda: dsl_op("while_", ITERATOR)(handler),  # a second form in one position
        lambda: dsl_op("range2", ITERATOR, aliases=("cond",))(handler),  # another operation's name as an alias
        lambda: dsl_op("while2_", ITERATOR)(handler),  # a refused operation
        lambda: dsl_op("range2", ITERATOR, aliases=("while2_",))(handler),  # a refused operation as an alias
        lambda: refuse_op("range", "no"),  # a registered operation
        lambda: refuse_op("while2_", "no"),  # refused twice
    ]
    try:
        for attempt in attempts:
            with pytest.raises(RegistryError):
                attempt()
    finally:
        del REFUSED["while2_"]
    after = {spelling: (op, dict(op.forms), dict(op.misplaced), op.aliases) for spelling, op in OPS.items()}
    assert after == before and STATEMENTS == statements_before and REFUSED == refused_before


def _statement_classes(cls: type = ast.stmt) -> set[type]:
    return {sub for direct in cls.__subclasses__() for sub in {direct} | _statement_classes(direct)}


def test_every_statement_class_has_a_reader_or_a_message():
    classes = _statement_classes()
    assert {ast.Assign, ast.For, ast.Try} <= classes
    unnamed = sorted(c.__name__ for c in classes if c not in STATEMENTS and c.__name__ not in UNSUPPORTED)
    assert not unnamed, f"statements with neither a reader nor a message: {unnamed}"
    assert not {c.__name__ for c in STATEMENTS} & set(UNSUPPORTED)


def test_a_try_star_statement_is_refused_by_name(tmp_path):
    error = read(tmp_path, "try:\n    pass\nexcept* ValueError:\n    pass\nreturn out\n")
    assert (error.span.line, error.message) == (FIRST_BODY_LINE, "try statements are not supported")


# -- every operation has a program ---------------------------------------------------------------


def _spellings_used() -> dict[str, list[str]]:
    used: dict[str, list[str]] = {}
    for directory in PROGRAM_DIRS:
        for path in sorted((REPO / directory).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                spelled = dsl_call(node)
                if spelled in OPS:
                    used.setdefault(spelled, []).append(path.name)
    return used


def test_every_operation_and_alias_is_in_a_program_the_suites_compile():
    used = _spellings_used()
    missing = sorted(spelling for spelling in OPS if spelling not in used)
    assert not missing, f"no program in {PROGRAM_DIRS} uses: {missing}"


def test_the_readme_lists_every_operation_with_the_module_of_its_handler():
    readme = (REPO / "README.md").read_text()
    for name, aliases, _positions, files in describe_registry():
        row = next((line for line in readme.splitlines() if line.startswith(f"| `pl.{name}`")), None)
        assert row is not None, f"README: no row for pl.{name}"
        for file in files.split(", "):
            assert f"`{file}`" in row and (REPO / "passes" / "frontend" / file).exists(), (name, file, row)
        for alias in filter(None, aliases.split(", ")):
            assert f"`pl.{alias}`" in row, (name, alias, row)


# -- an unknown pl.x is a located error wherever it is ------------------------------------------

UNKNOWN = {
    "value": ("x = pl.nothing(1)\n", 4, "unknown or unsupported operation 'pl.nothing' in an orchestration function"),
    "statement": ("pl.nothing(1)\n", 0, "this expression has no effect as a statement: 'pl.nothing(1)'"),
    "expression": ("x = n + pl.nothing(1)\n", 8, "unsupported function call 'pl.nothing(1)'"),
    "task argument": ("out = self.k(pl.nothing(a), out)\n", 13, "unsupported function call 'pl.nothing(a)'"),
    "iterator": ("for i in pl.nothing(3):\n    pass\n", 9,
                 "a for loop must iterate over pl.range(...), pl.parallel(...), pl.pipeline(...), pl.unroll(...), pl.while_(...) or pl.spmd(...)"),
    "context": ("with pl.nothing():\n    pass\n", 5,
                "unsupported context manager: use pl.manual_scope(), pl.scope(), pl.at(), pl.spmd() or pl.cluster()"),
    "unpacked": ("x, y = pl.nothing(1)\n", 0,
                 "only kernel calls, pl.submit, pl.yield_ and pl.spmd_submit can be unpacked into several names"),
}


@pytest.mark.parametrize("where", sorted(UNKNOWN))
def test_an_unknown_operation_is_a_located_user_error(tmp_path, where):
    body, col, message = UNKNOWN[where]
    error = read(tmp_path, body + "return out\n")
    assert isinstance(error, UserError), error
    assert (error.span.line, error.span.col, error.message) == (FIRST_BODY_LINE, 8 + col, message)


# -- a construct is a handler and its registration ----------------------------------------------


def test_a_new_operation_is_one_registered_handler(tmp_path):
    """``pl.test_copy(t)``, registered here and nowhere else, reads and binds like any operation."""
    saved = dict(OPS)

    @dsl_op("test_copy", VALUE, aliases=("tensor.test_copy",), params=("tensor",))
    def test_copy(cx, call, args):
        expr, ty = cx.expr(args["tensor"])
        return expr, ty

    try:
        program = read(tmp_path, "t = pl.tensor.test_copy(a)\nout = self.k(t, out)\nreturn out\n")
        assert not isinstance(program, UserError), program
        assert [s._production for s in program.orch.body] == ["Let", "Task", "Return"]
        error = read(tmp_path, "t = pl.test_copy(a, a)\nreturn out\n")
        assert error.message == "pl.test_copy takes at most 1 positional argument(s)"
        error = read(tmp_path, "t = pl.test_copy(tensor=a, other=a)\nreturn out\n")
        assert error.message == "pl.test_copy has no keyword argument 'other'"
        error = read(tmp_path, "t = pl.test_copy()\nreturn out\n")
        assert error.message == "pl.test_copy is missing argument 'tensor'"
        error = read(tmp_path, "x = n + pl.test_copy(a)\nreturn out\n")
        assert error.message == "tasks and tensor operations must be assigned to a name, not used inside an expression"
    finally:
        OPS.clear()
        OPS.update(saved)
    assert "test_copy" not in OPS


def test_a_scalar_operation_is_read_wherever_an_expression_is(tmp_path):
    """An ``EXPRESSION`` form (as ``pl.const`` will be): inside arithmetic, as a task's scalar
    argument, as the value of an assignment; its arguments are read as any expression."""
    saved = dict(OPS)

    @dsl_op("test_twice", EXPRESSION, params=("value",))
    def test_twice(cx, call, args):
        expr, ty = cx.scalar_expr(args["value"])
        return S.LANGUAGE.Bin(BinOp.mul, expr, expr), ty

    try:
        program = read(tmp_path, "x = n + pl.test_twice(n)\ny = pl.test_twice(x)\nreturn out\n")
        assert not isinstance(program, UserError), program
        assert unparse(program.orch.body) == (
            "[(Let (Binder x (ScalarType INT64)) (Bin add (Var n) (Bin mul (Var n) (Var n))))\n"
            " (Let (Binder y (ScalarType INT64)) (Bin mul (Var x) (Var x)))\n"
            " (Return [(Var out)])]"
        )
        error = read(tmp_path, "x = pl.test_twice(a)\nreturn out\n")
        assert error.message == "expected a scalar, got a pl.Tensor[[16, 16], pl.FP32]"
        error = read(tmp_path, "pl.test_twice(n)\nreturn out\n")
        assert error.message == "this expression has no effect as a statement: 'pl.test_twice(n)'"
    finally:
        OPS.clear()
        OPS.update(saved)
