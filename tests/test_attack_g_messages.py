"""A g++ run that fails without a message is reported with its exit status, so a failing-program
file says what happened (session 31: a nests run recorded a rejection with an empty reason; with
the status, the next one showed -15, the g++ of the last program killed by the `timeout` the run
was started under)."""

import shutil

import pytest

from nanopass.tools.attack import record


@pytest.fixture
def silent_compiler(monkeypatch):
    false = shutil.which("false")
    assert false is not None, "the test needs the POSIX `false` command"
    monkeypatch.setattr(record, "CXX", false)


def test_a_build_that_fails_silently_names_the_status(silent_compiler, tmp_path):
    built = record.build("int main() { return 0; }\n", tmp_path)
    assert built.binary is None
    assert built.gxx_error == "g++ exited with status 1 and no message"


def test_a_syntax_check_that_fails_silently_names_the_status(silent_compiler, tmp_path):
    assert record.syntax_error("int x;\n", tmp_path, "orch") == "g++ exited with status 1 and no message"
