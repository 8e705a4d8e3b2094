"""tools/precompiled_header.py: the runtime tools' g++ runs read the stand-in header precompiled,
and still reject what the plain compile rejects."""

import subprocess

from nanopass.tools import precompiled_header
from nanopass.tools.attack import record

from conftest import gpp

FLAGS = ("-std=c++17", "-O0", "-w")
USES_THE_HEADER = '#include "pto_orchestration_api.h"\nvoid f(PTO2Runtime* rt) { (void)rt; }\n'


def test_a_compile_with_the_flags_reads_the_precompiled_copy(tmp_path):
    flags = precompiled_header.header_flags(gpp(), FLAGS)
    assert "-include" in flags
    source = tmp_path / "uses.cpp"
    source.write_text(USES_THE_HEADER)
    # -H lists each header read; g++ marks a precompiled header it used with "!".
    done = subprocess.run([gpp(), *FLAGS, *flags, "-H", "-fsyntax-only", str(source)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert any(line.startswith("! ") and line.endswith(".gch") for line in done.stderr.splitlines()), done.stderr


def test_errors_in_the_generated_code_are_still_reported(tmp_path):
    bad = USES_THE_HEADER + "void g() { no_such_function(); }\n"
    error = record.syntax_error(bad, tmp_path, "bad")
    assert "no_such_function" in error and "not declared" in error
    assert record.syntax_error(USES_THE_HEADER, tmp_path, "good") == ""
    # Under -Wall -Werror, a warning of the generated code is an error with the copy too.
    unused = USES_THE_HEADER + "void h() { int unused_local = 0; }\n"
    assert "unused_local" in record.syntax_error(unused, tmp_path, "warns", warnings=True)


def test_a_compiler_that_cannot_build_the_copy_gets_the_plain_include_path():
    flags = precompiled_header.header_flags("/bin/false", FLAGS)
    assert flags == ["-I", str(precompiled_header.TOOLS)]


def test_a_copy_the_temporary_directory_lost_is_built_again(tmp_path, monkeypatch):
    import shutil
    import tempfile
    from pathlib import Path

    # (a temporary directory of the test's own: the other tests' compiles keep the shared copy)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(precompiled_header, "_built", {})
    flags = precompiled_header.header_flags(gpp(), FLAGS)
    assert flags[1].startswith(str(tmp_path))
    shutil.rmtree(flags[1])
    again = precompiled_header.header_flags(gpp(), FLAGS)
    assert again == flags and (Path(again[1]) / (precompiled_header.HEADER + ".gch")).exists()
