"""Programs a user of the existing DSL writes, run through ``nanopass run`` as the user runs it.

tests/user_programs/valid/ holds programs written from reference-surface.md, the examples and the
README alone (every construct of reference-surface.md in realistic combinations, and the existing
compiler's printed IR): each must compile, and its C++ must pass ``g++ -fsyntax-only`` against the
stand-in header. A printed-IR file must also compile through ``nanopass.compile_text`` to the same C++.

tests/user_programs/invalid/ holds programs a user gets wrong. Each says in its header where the
error belongs: ``# expect: LINE:COL: error: PART`` (worked out by hand from the token its
``# where:`` line names: the line and column of that token in the file, counting from 1) and a
part of the message. ``nanopass run`` must exit 1 and print ``FILE:LINE:COL: error: ...`` there,
with no traceback.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import REPO, compile_check
from nanopass import cli

PROGRAMS = REPO / "tests" / "user_programs"
VALID = sorted((PROGRAMS / "valid").glob("*.py"))
INVALID = sorted((PROGRAMS / "invalid").glob("*.py"))
EXPECT = re.compile(r"^# expect: (\d+):(\d+): error: (.+)$", re.MULTILINE)


def _run(path: Path, capsys) -> tuple[int, str, str]:
    status = cli.main(["run", str(path), "-q"])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_directories_hold_what_the_task_asks_for():
    assert len(VALID) >= 40 and len(INVALID) >= 20


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_a_valid_program_compiles_and_gxx_accepts_its_cpp(path, capsys, tmp_path):
    status, out, err = _run(path, capsys)
    assert status == 0, err
    assert "Traceback" not in err
    assert "aicpu_orchestration_entry" in out
    compile_check(out, tmp_path, f"{path.stem}.cpp")
    if path.stem.startswith("printed_"):
        import nanopass

        assert nanopass.compile_text(path.read_text()).code == out


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_an_invalid_program_is_refused_at_the_place_its_header_names(path, capsys):
    expected = EXPECT.search(path.read_text())
    assert expected, f"{path.name} has no '# expect:' line"
    line, col, part = expected.groups()
    status, out, err = _run(path, capsys)
    assert status == 1, err
    assert "Traceback" not in err and out == ""
    first = err.splitlines()[0]
    assert first.startswith(f"{path}:{line}:{col}: error: "), first
    assert part in err, err  # the message, or its help: line (did you mean ...?)


@pytest.mark.parametrize("how", [[], ["--no-exec"]], ids=["imported", "no-exec"])
@pytest.mark.parametrize("stem", ["typo_variable", "printed_typo"])
def test_an_error_names_the_file_as_the_user_typed_it(stem, how, capsys, monkeypatch, tmp_path):
    # GCC's FILE:LINE:COL names the file as given on the command line; every way of reading a
    # program does the same (the ast-only readers, --no-exec and the printed IR, wrote the absolute path)
    source = PROGRAMS / "invalid" / "typo_variable.py"
    if stem == "printed_typo":  # a printed-IR program, read with ast whatever the flags
        source = tmp_path / "printed_typo.py"
        source.write_text((PROGRAMS / "valid" / "printed_scalars.py").read_text().replace(
            "self.blend(quarter", "self.blendd(quarter"))
    monkeypatch.chdir(source.parent)
    status = cli.main(["run", source.name, "-q", *how])
    first = capsys.readouterr().err.splitlines()[0]
    assert status == 1 and first.startswith(f"{source.name}:"), first
