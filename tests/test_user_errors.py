"""Mistakes in a program are reported as FILE:LINE:COL: error: ... with the source line, exit 1."""

from __future__ import annotations

import re
import textwrap

import pytest

from conftest import run_cli

HEADER = '''\
import nanopass.dsl as pl

T = pl.Tensor[[16, 16], pl.FP32]


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], s: pl.Scalar[pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        r: pl.Tensor[[16, 16], pl.FP32] = pl.store(a, [0, 0], out)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
'''


def compile_body(tmp_path, body: str):
    """Write a program whose orchestration body is ``body``; return (cli result, line offset)."""
    path = tmp_path / "prog.py"
    path.write_text(HEADER + textwrap.indent(textwrap.dedent(body), " " * 8))
    return run_cli("run", str(path)), path, HEADER.count("\n")


# name -> (body, line in the body, column (1-based, as printed), message)
CASES = {
    "unknown kernel": ("out = self.nokernel(a, 1.0, out)\nreturn out\n", 1, 15, "'nokernel' is not defined"),
    "wrong argument count": ("out = self.k(a, out)\nreturn out\n", 1, 15, "expects 3 argument(s), got 2"),
    "scalar for a tensor": ("out = self.k(n, 1.0, out)\nreturn out\n", 1, 22, "parameter 'a' of 'k' is a tensor"),
    "tensor for a scalar": ("out = self.k(a, a, out)\nreturn out\n", 1, 25, "parameter 's' of 'k' is a"),
    "non-DSL statement": ("abs(n)\nreturn out\n", 1, 9, "no effect as a statement"),
    "print": ("print('hi')\nreturn out\n", 1, 9, "print(...) is host printing, which is not part of orchestration code"),
    "while loop": ("while n > 0:\n    pass\nreturn out\n", 1, 9, "while loops are not supported"),
    "import": ("import os\nreturn out\n", 1, 9, "import statements are not allowed"),
    "undefined name": ("out = self.k(zz, 1.0, out)\nreturn out\n", 1, 22, "undefined variable 'zz'"),
    "type change": ("out = 3\nreturn out\n", 1, 9, "cannot re-assign 'out' with a different type"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_user_error_is_located_and_has_no_traceback(tmp_path, name):
    body, line, col, message = CASES[name]
    result, path, offset = compile_body(tmp_path, body)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{path}:{offset + line}:{col}: error: "), first
    assert message in first
    source_line = (HEADER + textwrap.indent(textwrap.dedent(body), " " * 8)).splitlines()[offset + line - 1]
    assert source_line.strip() in result.stderr  # the source line is shown
    assert result.stdout == ""


def test_caret_points_at_the_column(tmp_path):
    result, _, _ = compile_body(tmp_path, "out = self.nokernel(a, 1.0, out)\nreturn out\n")
    lines = result.stderr.splitlines()
    source = next(i for i, l in enumerate(lines) if "self.nokernel" in l)
    caret = lines[source + 1]
    assert caret.strip() == "^"
    assert lines[source][caret.index("^") :].startswith("self.nokernel")


def test_missing_file_is_a_one_line_user_error(tmp_path):
    result = run_cli("run", str(tmp_path / "nope.py"))
    assert result.returncode == 1 and "no such file" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_bad_flag_is_a_usage_error():
    result = run_cli("run", "--no-such-flag", "x.py")
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_help_documents_exit_codes():
    result = run_cli("--help")
    assert result.returncode == 0
    for code in ("0  success", "1  an error in the program", "2  a usage error", "3  an internal compiler error"):
        assert code in result.stdout


def test_error_inside_nested_block_points_into_it(tmp_path):
    body = "for i in pl.range(n):\n    out = self.k(a, i, out, out)\nreturn out\n"
    result, path, offset = compile_body(tmp_path, body)
    assert result.returncode == 1
    assert re.match(rf"{re.escape(str(path))}:{offset + 2}:\d+: error: kernel 'k' expects 3", result.stderr)


def test_columns_are_printed_from_1_as_compilers_and_editors_count(tmp_path):
    from nanopass.errors import Span

    assert str(Span("f.py", 3, 0)) == "f.py:3:1" and Span("f.py", 3, 0).display_col == 1  # spans count from 0
    result, path, offset = compile_body(tmp_path, "import os\nreturn out\n")
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"{path}:{offset + 1}:9: error: ")  # 'import' is the 9th character
    assert lines[1] == f"  {offset + 1:>4} |         import os"
    assert lines[2].index("^") == lines[1].index("import")


def test_columns_count_characters_not_utf8_bytes(tmp_path):
    """Python's ast gives byte offsets; a line with non-ASCII text before the error still points at
    the right character (and the caret sits under it)."""
    result, path, offset = compile_body(tmp_path, '"名字"; out = self.nokernel(a, 1.0, out)\nreturn out\n')
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"{path}:{offset + 1}:21: error: function 'nokernel' is not defined"), lines[0]
    source = next(i for i, l in enumerate(lines) if "self.nokernel" in l)
    assert lines[source + 1].index("^") == lines[source].index("self.nokernel")


@pytest.mark.parametrize("no_exec", [False, True], ids=["run", "no-exec"])
def test_a_call_on_something_that_is_not_the_dsl_module_is_refused(tmp_path, no_exec):
    """``x.create_tensor(...)`` is not ``pl.create_tensor(...)`` unless ``x`` is the DSL module: a
    call on another module, a constant or a variable is an error naming what was called."""
    header = HEADER.replace("import nanopass.dsl as pl\n", "import nanopass.dsl as pl\nimport os\nimport nanopass.dsl as dsl\n")
    cases = {
        "os.create_tensor([16, 16], dtype=pl.FP32)": "'os.create_tensor'",
        "T.create_tensor([16, 16], dtype=pl.FP32)": "'T.create_tensor'",
        "a.create_tensor([16, 16], dtype=pl.FP32)": "'a.create_tensor'",
    }
    for call, named in cases.items():
        path = tmp_path / "prog.py"
        path.write_text(header + f"        t = {call}\n        return out\n")
        result = run_cli("run", str(path), *(["--no-exec"] if no_exec else []))
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        first = result.stderr.splitlines()[0]
        assert first.startswith(f"{path}:{header.count(chr(10)) + 1}:13: error: "), first
        assert named in first and "not the DSL module" in first, first
    path.write_text(header + "        t = dsl.create_tensor([16, 16], dtype=pl.FP32)\n        return out\n")
    aliased = run_cli("run", str(path), *(["--no-exec"] if no_exec else []))  # another alias of the module
    assert aliased.returncode == 0, aliased.stderr


def test_update_element_updates_the_array_in_place(tmp_path):
    """``pl.array.update_element`` is ``arr[i] = v``: the C++ array is updated in place, so in the DSL
    its result is assigned to the array's own name (only the printed IR's SSA form names the next
    version)."""
    body = ("tids = pl.array.create(2, pl.TASK_ID)\nother = pl.array.update_element(tids, 0, None)\n"
            "return out\n")
    result, path, offset = compile_body(tmp_path, body)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{path}:{offset + 2}:9: error: pl.array.update_element updates 'tids' in place"), first
