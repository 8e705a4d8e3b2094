"""The command line on bad input: a one-line message, exit 1, nothing half-written (issue 11)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from conftest import EXAMPLES, run_cli

from nanopass.passes.pipeline import PASSES

BASIC = (EXAMPLES / "basic.py").read_text()


def make_missing(tmp: Path) -> Path:
    return tmp / "nope.py"


def make_directory(tmp: Path) -> Path:
    (tmp / "dir.py").mkdir()
    return tmp / "dir.py"


def make_binary(tmp: Path) -> Path:
    (tmp / "blob.py").write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00")
    return tmp / "blob.py"


def make_latin1(tmp: Path) -> Path:
    (tmp / "latin.py").write_bytes("# caf\xe9\nimport nanopass.dsl as pl\n".encode("latin-1"))
    return tmp / "latin.py"


def make_empty(tmp: Path) -> Path:
    (tmp / "empty.py").write_text("")
    return tmp / "empty.py"


def make_no_program(tmp: Path) -> Path:
    (tmp / "plain.py").write_text("import nanopass.dsl as pl\nX = 1\n")
    return tmp / "plain.py"


def make_two_programs(tmp: Path) -> Path:
    other = BASIC.split("import nanopass.dsl as pl\n", 1)[1].replace("class Basic", "class Other")
    (tmp / "two.py").write_text(BASIC + "\n\n" + other)
    return tmp / "two.py"


# case -> (make the file, extra arguments, regex of the first stderr line, lines of the source excerpt)
FILE_CASES = {
    "a missing file": (make_missing, (), r"error: {path}: no such file$", 0),
    "a directory": (make_directory, (), r"error: {path}: is a directory, not a Python file$", 0),
    "a device": (lambda tmp: Path(os.devnull), (), r"error: {path}: is not a regular file$", 0),
    "a binary file": (make_binary, (), r"error: {path}: is a binary file, not a Python file$", 0),
    "a file not in UTF-8": (make_latin1, (), r"error: {path}: is not UTF-8 text$", 0),
    "an empty file": (make_empty, (), r"error: {path}: no @pl.program class found$", 0),
    "a file with no program": (make_no_program, (), r"error: {path}: no @pl.program class found$", 0),
    "two programs and no --program": (
        make_two_programs, (), r"error: {path}: holds several programs \(Basic, Other\); choose one with --program NAME$", 0),
}  # an unknown --program is a usage error (exit 2): tests/test_cli_promises.py


@pytest.mark.parametrize("no_exec", [False, True], ids=["import", "no-exec"])
@pytest.mark.parametrize("case", sorted(FILE_CASES))
def test_bad_files_give_one_line_and_exit_1(tmp_path, case, no_exec):
    make, extra, pattern, _ = FILE_CASES[case]
    path = make(tmp_path)
    result = run_cli("run", str(path), *extra, *(["--no-exec"] if no_exec else []))
    assert result.returncode == 1, result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert re.match(pattern.format(path=re.escape(str(path))), lines[0]), lines[0]


def located(result, path: Path, line: int) -> re.Match:
    """The first stderr line is FILE:LINE:COL: error: ..., followed by the source line and a caret."""
    assert result.returncode == 1, result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    match = re.match(rf"{re.escape(str(path))}:(\d+):(\d+): error: (.*)$", lines[0])
    assert match and int(match.group(1)) == line, lines[0]
    assert lines[1].startswith(f"  {line:>4} | ") and lines[2].strip() == "^"
    return match


@pytest.mark.parametrize("no_exec", [False, True], ids=["import", "no-exec"])
def test_a_python_syntax_error_is_located(tmp_path, no_exec):
    path = tmp_path / "syntax.py"
    path.write_text("import nanopass.dsl as pl\n\nX = [1, 2\nY = 3\n")
    result = run_cli("run", str(path), *(["--no-exec"] if no_exec else []))
    match = located(result, path, 3)
    assert match.group(3).startswith("Python syntax error: '[' was never closed")


def test_a_bad_indentation_is_a_syntax_error(tmp_path):
    path = tmp_path / "indent.py"
    path.write_text(BASIC.replace("        d = self.kernel_add(c, b, d)", "      d = self.kernel_add(c, b, d)"))
    line = path.read_text().splitlines().index("      d = self.kernel_add(c, b, d)") + 1
    match = located(run_cli("run", str(path)), path, line)
    assert match.group(3) == "Python syntax error: unindent does not match any outer indentation level"


@pytest.mark.parametrize(
    "statement, message",
    [
        ("raise ValueError('boom')", "importing the file raised ValueError: boom"),
        ("import no_such_module_here", "importing the file raised ModuleNotFoundError: No module named 'no_such_module_here'"),
        ("import sys; sys.exit(4)", "importing the file raised SystemExit: 4"),
        ("X = 1 // 0", "importing the file raised ZeroDivisionError: integer division or modulo by zero"),
    ],
)
def test_an_exception_while_importing_is_located(tmp_path, statement, message):
    path = tmp_path / "raises.py"
    path.write_text(BASIC.replace("import nanopass.dsl as pl\n", f"import nanopass.dsl as pl\n{statement}\n", 1))
    line = BASIC.splitlines().index("import nanopass.dsl as pl") + 2
    match = located(run_cli("run", str(path)), path, line)
    assert match.group(3) == message
    assert run_cli("run", str(path), "--no-exec").returncode == 0  # the statement is not run


@pytest.mark.parametrize(
    "decorator, message",
    [
        ("@pl.program(3)", "@pl.program takes no positional argument (3); write @pl.program above a class"),
        ("@pl.program()", None),  # the call form is a decorator too
    ],
)
def test_a_misused_program_decorator_is_located(tmp_path, decorator, message):
    path = tmp_path / "decorator.py"
    path.write_text(BASIC.replace("@pl.program", decorator, 1))
    result = run_cli("run", str(path))
    if message is None:
        assert result.returncode == 0 and result.stdout == (EXAMPLES / "basic.expected.cpp").read_text()
        return
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if text.startswith(decorator))
    match = located(result, path, line)
    assert match.group(3) == f"importing the file raised TypeError: {message}"


def test_a_program_decorator_on_a_function_is_refused_at_import():
    import nanopass.dsl as pl

    with pytest.raises(TypeError, match=r"@pl.program decorates a class, not <function"):
        pl.program()(lambda: None)


def test_an_exception_in_an_annotation_is_located_in_the_class(tmp_path):
    path = tmp_path / "annotation.py"
    path.write_text(BASIC.replace("pl.Tensor[[16, 16], pl.FP32]", "pl.Tensor[[16, 16], pl.FP32, undefined_name]", 1))
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "undefined_name" in text)
    match = located(run_cli("run", str(path)), path, line)
    assert match.group(3) == "importing the file raised NameError: name 'undefined_name' is not defined"


def test_an_output_directory_that_cannot_be_written(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("in the way")
    result = run_cli("run", str(EXAMPLES / "basic.py"), "-o", str(blocker / "out"))
    assert result.returncode == 1 and result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        f"error: cannot write {blocker}/out/orchestration/orch_basic.cpp: Not a directory"
    ]
    assert blocker.read_text() == "in the way"


def test_a_failed_write_leaves_no_partial_file(tmp_path):
    out = tmp_path / "out"
    (out / "orchestration" / "orch_basic.cpp").mkdir(parents=True)  # a directory where the file goes
    result = run_cli("run", str(EXAMPLES / "basic.py"), "-o", str(out))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [f"error: cannot write {out}/orchestration/orch_basic.cpp: Is a directory"]
    assert sorted(p.name for p in (out / "orchestration").iterdir()) == ["orch_basic.cpp"]  # no temporary left


def test_an_output_file_is_replaced_whole(tmp_path):
    out = tmp_path / "out"
    target = out / "orchestration" / "orch_basic.cpp"
    target.parent.mkdir(parents=True)
    target.write_text("x" * 100000)  # longer than the new content: a non-atomic write would leave a tail
    assert run_cli("run", str(EXAMPLES / "basic.py"), "-o", str(out), "-q").returncode == 0
    assert target.read_text() == (EXAMPLES / "basic.expected.cpp").read_text()
    assert sorted(p.name for p in target.parent.iterdir()) == ["orch_basic.cpp"]


@pytest.mark.parametrize("foreign", ["index.html", "00_parse_dsl.surface.txt",
                                     f"{len(PASSES):02d}_lower_to_emission.emission.txt"])
def test_a_dump_directory_with_foreign_files_is_refused_before_writing(tmp_path, foreign):
    dump = tmp_path / "dump"
    dump.mkdir()
    (dump / foreign).write_text("mine")
    result = run_cli("run", str(EXAMPLES / "basic.py"), "--dump-all", str(dump))
    assert result.returncode == 1 and result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        f"error: {dump}/{foreign} exists and was not written by nanopass; not overwriting it "
        "(choose another --dump-all directory)"
    ]
    assert [p.name for p in dump.iterdir()] == [foreign] and (dump / foreign).read_text() == "mine"


def test_stdout_closed_by_its_reader_is_not_a_traceback():
    import subprocess
    import sys

    from conftest import REPO

    # the reader closes the pipe at once (exec 0<&-) and stays alive: the compiler's write fails
    command = f"{sys.executable} -m nanopass run {EXAMPLES / 'manual_phases.py'} | (exec 0<&-; sleep 3)"
    result = subprocess.run(["bash", "-c", command + "; echo ${PIPESTATUS[0]}"], capture_output=True, text=True,
                            cwd=REPO, timeout=120)
    assert result.stdout == "141\n"
    assert result.stderr == ""


def test_the_readme_states_the_exit_codes_the_risk_of_importing_and_no_exec():
    from conftest import REPO

    from nanopass import cli

    readme = " ".join((REPO / "README.md").read_text().split())
    codes = re.search(r"Exit codes: (\d+) success; (\d+) an error in the program .*?; (\d+) a usage error .*?; "
                      r"(\d+) an internal compiler error .*?; (\d+) interrupted; (\d+) stdout closed", readme)
    assert codes and [int(c) for c in codes.groups()] == [
        cli.EXIT_OK, cli.EXIT_USER, cli.EXIT_USAGE, cli.EXIT_INTERNAL, 130, cli.EXIT_BROKEN_PIPE]
    assert "`nanopass run` imports your file**, which runs its top-level code" in readme
    assert "nanopass run FILE.py --no-exec" in readme and "nothing in it runs" in readme
    for flag in ("--no-exec", "--program", "--dump-all", "-o"):  # every flag the bad-input cases name
        assert f" {flag}" in readme


@pytest.mark.parametrize("edit", [
    ("import nanopass.dsl as pl\n", "import nanopass.dsl as pl\nraise ValueError('boom')\n"),  # while importing
    ("self.kernel_add(a, b, c)", "self.nokernel(a, b, c)"),  # while compiling
])
def test_a_program_that_fails_writes_no_output(tmp_path, edit):
    path = tmp_path / "prog.py"
    path.write_text(BASIC.replace(*edit, 1))
    out = tmp_path / "out"
    result = run_cli("run", str(path), "-o", str(out))
    assert result.returncode == 1 and result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"{path}:")
    assert not out.exists()


def test_explain_on_bad_input_is_one_line_too(tmp_path):
    result = run_cli("explain", "convert_to_ssa", str(tmp_path / "nope.py"))
    assert (result.returncode, result.stdout, result.stderr) == (1, "", f"error: {tmp_path / 'nope.py'}: no such file\n")


def test_two_orchestration_functions_and_no_func(tmp_path):
    # reference-surface 7: each is compiled; stdout gets the first by name (the reference's default)
    path = tmp_path / "two_funcs.py"
    second = BASIC[BASIC.index("    @pl.function(type=pl.FunctionType.Orchestration)"):].replace("def orch_basic", "def orch_other")
    path.write_text(BASIC + "\n" + second)
    result = run_cli("run", str(path))
    assert result.returncode == 0 and result.stdout == (EXAMPLES / "basic.expected.cpp").read_text()
    assert result.stderr == (
        "note: program 'Basic' has 2 orchestration functions; printed orch_basic, the first by name (also "
        "compiled: orch_other; --func NAME prints one, -o DIR writes each)\n"
    )
    result = run_cli("run", str(path), "--func", "orch_other")
    expected = (EXAMPLES / "basic.expected.cpp").read_text().replace("Function: orch_basic", "Function: orch_other")
    assert result.returncode == 0 and result.stdout == expected


def test_pythons_syntax_warnings_are_printed_as_located_warnings(tmp_path):
    path = tmp_path / "warns.py"
    path.write_text(BASIC.replace("import nanopass.dsl as pl\n", "import nanopass.dsl as pl\n\n\ndef unused():\n    return (lambda: 0)[0]\n", 1))
    line = path.read_text().splitlines().index("    return (lambda: 0)[0]") + 1
    result = run_cli("run", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == (
        f"{path}:{line}:5: warning: Python: 'function' object is not subscriptable; perhaps you missed a comma?")
    assert "SyntaxWarning" not in result.stderr
    quiet = run_cli("run", "-q", str(path))
    assert quiet.returncode == 0 and quiet.stderr == ""
