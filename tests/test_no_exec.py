"""``nanopass run --no-exec``: a program is read with ``ast`` only; its file never runs (issue 11)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from conftest import EXAMPLES, PROGRAMS, REPO, load_program, run_cli

import nanopass
from nanopass.static_loader import load_programs_static

SOURCES = sorted([*EXAMPLES.glob("*.py"), *(REPO / "tests" / "golden").glob("*.py"), *PROGRAMS.glob("*.py")])


@pytest.mark.parametrize("source", SOURCES, ids=[p.stem for p in SOURCES])
def test_no_exec_compiles_every_program_as_importing_does(source):
    [static] = load_programs_static(str(source))
    assert nanopass.generate_orchestration(static).code == nanopass.generate_orchestration(load_program(source)).code


def test_no_exec_on_the_command_line_prints_the_expected_cpp():
    result = run_cli("run", str(EXAMPLES / "manual_phases.py"), "--no-exec")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (EXAMPLES / "manual_phases.expected.cpp").read_text()
    explained = run_cli("explain", "convert_to_ssa", str(EXAMPLES / "dynamic_dims.py"), "--no-exec", "--width", "200")
    assert explained.returncode == 0 and "convert_to_ssa: surface -> ssa" in explained.stdout


PROGRAM = '''\
import os
import nanopass.dsl as pl
from nanopass.dsl import FP32, dynamic

open(os.path.join(os.path.dirname(__file__), "ran.txt"), "w").write("the file ran")
print("top-level print")
M = dynamic("M")
TILE = 4 * 4
SHAPE = (TILE, TILE)
DT = FP32
KIND = pl.FunctionType.AIV
{constants}


@pl.program
class Prog:
    @pl.function(type=KIND)
    def k(self, a: pl.Tensor[[TILE, 16], DT], s: pl.Scalar[pl.INT64], o: pl.InOut[pl.Tensor[SHAPE, DT]]) -> pl.Tensor[[16, 16], DT]:
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], o: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.range({use}):
            o = self.k(a, i, o)
        return o
'''


def write(tmp_path: Path, constants: str, use: str) -> Path:
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM.format(constants=textwrap.dedent(constants), use=use))
    return path


def test_no_exec_never_runs_the_file(tmp_path):
    path = write(tmp_path, "STEPS = TILE // 8 + 1", "STEPS")
    result = run_cli("run", str(path), "--no-exec")
    assert result.returncode == 0, result.stderr
    assert "for (int64_t i = 0; i < 3; i += 1)" in result.stdout
    assert not (tmp_path / "ran.txt").exists() and "top-level print" not in result.stdout + result.stderr
    imported = run_cli("run", str(path))  # the default imports the file: its code runs
    assert imported.returncode == 0 and (tmp_path / "ran.txt").exists()
    assert imported.stdout == result.stdout  # what the file prints goes to stderr, not into the C++
    assert "top-level print" in imported.stderr


def test_no_exec_refuses_a_constant_from_a_function_call_naming_it(tmp_path):
    path = write(tmp_path, 'STEPS = int(os.environ.get("STEPS", "3"))', "STEPS")
    result = run_cli("run", str(path), "--no-exec")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    line = PROGRAM.splitlines().index("        for i in pl.range({use}):") + 1
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{path}:{line}:27: error: 'STEPS' is assigned from a function call "), first
    assert "its value is not known without running the file" in first
    assert "help: reading a file without running it (--no-exec)" in result.stderr
    assert run_cli("run", str(path)).returncode == 0  # importing evaluates it


UNKNOWN = {
    "an import": ("import math\nSTEPS = math", "'STEPS' depends on 'math', which is an imported module"),
    "a def": ("def STEPS():\n    return 3", "'STEPS' is a function defined at line"),
    "an if": ("if TILE > 4:\n    STEPS = 3", "'STEPS' is bound inside a module-level 'if' statement"),
    "a dependency": ("BASE = len('abc')\nSTEPS = BASE + 1", "'STEPS' depends on 'BASE', which is assigned from a function call \"len('abc')\""),
    "a huge power": ("STEPS = 2 ** 100000", "'STEPS' is assigned '2 ** 100000' at line 12, a number too large"),
    "a division by zero": ("STEPS = TILE // 0", "'STEPS' is assigned 'TILE // 0' at line 12, which raises ZeroDivisionError"),
    "a comprehension": ("STEPS = [i for i in range(3)]", "which is not a constant expression"),
}


@pytest.mark.parametrize("case", sorted(UNKNOWN))
def test_no_exec_names_each_unknown_constant_at_its_use(tmp_path, case):
    constants, message = UNKNOWN[case]
    path = write(tmp_path, constants, "STEPS")
    [program] = load_programs_static(str(path))
    with pytest.raises(nanopass.UserError) as caught:
        nanopass.generate_orchestration(program)
    error = caught.value
    assert message in error.message, error.message
    assert (error.span.file, error.span.line) == (str(path), PROGRAM.format(constants=constants, use="").splitlines().index("        for i in pl.range():") + 1)


def test_no_exec_unknown_names_in_types_and_decorators(tmp_path):
    source = PROGRAM.format(constants="TILE = compute()\nKIND = pick()", use="3")
    path = tmp_path / "prog.py"
    path.write_text(source)
    [program] = load_programs_static(str(path))
    with pytest.raises(nanopass.UserError) as caught:
        nanopass.generate_orchestration(program)
    assert re.match(r"'KIND' is assigned from a function call 'pick\(\)' at line \d+", caught.value.message)
    path.write_text(source.replace("type=KIND", "type=pl.FunctionType.AIV"))
    [program] = load_programs_static(str(path))
    with pytest.raises(nanopass.UserError) as caught:
        nanopass.generate_orchestration(program)
    assert caught.value.message.startswith("'TILE' is assigned from a function call 'compute()'")
    assert caught.value.span.line == source.splitlines().index("    def k(self, a: pl.Tensor[[TILE, 16], DT], s: pl.Scalar[pl.INT64], o: pl.InOut[pl.Tensor[SHAPE, DT]]) -> pl.Tensor[[16, 16], DT]:") + 1


def test_no_exec_sees_only_names_bound_before_the_class(tmp_path):
    path = write(tmp_path, "", "LATER")
    path.write_text(path.read_text() + "\nLATER = 3\n")
    [program] = load_programs_static(str(path))
    with pytest.raises(nanopass.UserError, match="undefined variable 'LATER'"):
        nanopass.generate_orchestration(program)


def test_no_exec_file_errors(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import nanopass.dsl as pl\nx = (1,\n")
    result = run_cli("run", str(bad), "--no-exec")
    assert result.returncode == 1 and re.match(rf"{re.escape(str(bad))}:2:\d+: error: Python syntax error", result.stderr)
    empty = tmp_path / "empty.py"
    empty.write_text("X = 1\n")
    result = run_cli("run", str(empty), "--no-exec")
    assert result.returncode == 1 and result.stderr.strip() == f"error: {empty}: no @pl.program class found"
    result = run_cli("run", str(tmp_path), "--no-exec")
    assert result.returncode == 1 and "is a directory" in result.stderr
