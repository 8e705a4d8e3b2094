"""The malformed-program corpus (issue 11): every program compiles or fails with a located user error.

``tests/corpus/*.py`` are mutants of the example and golden programs that the front-end fuzzer
(``nanopass.tools.fuzz_frontend``) generated, minimised, and that were reviewed by hand. Each
starts with two comment lines: how it was made (``# fuzz: ...``) and what compiling it gives
(``# expect: LINE:COL: error: MESSAGE``, ``# expect: error: MESSAGE`` for a file-level error, or
``# expect: compiles``). The check is the fuzzer's property, run in this process: C++ that g++
accepts (and the same with ``--no-exec``), or exactly the expected located user error; never an
internal error, a traceback or a timeout. ``fuzz_frontend --refresh tests/corpus`` rewrites the
expectations after a deliberate change of a message.
"""

from __future__ import annotations

import re

import pytest

from conftest import REPO, run_cli

from nanopass.tools.fuzz_frontend import COMPILED, EXPECT, USER_ERROR, Checker

pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")  # Python's own, about malformed programs

CORPUS_DIR = REPO / "tests" / "corpus"
CORPUS = sorted(CORPUS_DIR.glob("*.py"))


def expectation(path) -> str:
    lines = path.read_text().splitlines()
    assert lines[0].startswith("# fuzz: ") and lines[1].startswith(EXPECT), f"{path.name}: no '# fuzz:'/'{EXPECT}' header"
    return lines[1][len(EXPECT):]


@pytest.fixture(scope="module")
def checker(tmp_path_factory):
    return Checker(tmp_path_factory.mktemp("corpus"), seconds=60)


def test_the_corpus_holds_at_least_200_malformed_programs():
    errors = [p for p in CORPUS if expectation(p) != "compiles"]
    assert len(errors) >= 200
    assert len({expectation(p) for p in errors}) == len(errors)  # no two programs give the same error


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_corpus_program(checker, path):
    expect = expectation(path)
    outcome = checker.check_file(path)  # the loader leaves no user module behind
    assert not outcome.is_bug, f"{outcome.kind}: {outcome.message}\n{outcome.detail}"
    if expect == "compiles":
        assert outcome.kind == COMPILED
    else:
        assert outcome.kind == USER_ERROR and outcome.message == expect


CLI_SAMPLE = [p for p in CORPUS if expectation(p) != "compiles"][::40]


@pytest.mark.parametrize("path", CLI_SAMPLE, ids=[p.stem for p in CLI_SAMPLE])
def test_corpus_sample_on_the_command_line(path):
    expect = expectation(path)
    result = run_cli("run", str(path))
    assert result.returncode == 1 and result.stdout == "", result.stderr
    assert "Traceback" not in result.stderr
    first = result.stderr.splitlines()[0]
    if re.match(r"\d+:\d+: ", expect):
        assert first == f"{path}:{expect}"
    else:
        assert first == expect.replace("error: ", f"error: {path}: ", 1)
