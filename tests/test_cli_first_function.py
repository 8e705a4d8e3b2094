"""``nanopass check`` and ``nanopass explain`` on a program with several orchestration functions take
the first by name without ``--func``, as the README says and as ``nanopass run`` prints it (the
function the existing compiler takes by default, reference-surface.md section 7), with a note on
stderr naming the others; before, both exited 1 ("choose one with --func NAME")."""

from __future__ import annotations

import json

import pytest

from nanopass import cli

# zeta is defined first; alpha, the first by name, runs two tasks, zeta one
SOURCE = '''
import nanopass.dsl as pl


@pl.program
class Two:
    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def zeta(self, x: pl.Tensor[[16, 16], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        out = self.copy(x, out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def alpha(self, x: pl.Tensor[[16, 16], pl.FP32],
              out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        m = pl.create_tensor([16, 16], dtype=pl.FP32)
        m = self.copy(x, m)
        out = self.copy(m, out)
        return out
'''
NOTE = "note: program 'Two' has 2 orchestration functions; {verb} alpha, the first by name (also: zeta"


@pytest.fixture
def path(tmp_path):
    file = tmp_path / "two.py"
    file.write_text(SOURCE)
    return str(file)


def test_check_takes_the_first_by_name(path, capsys):
    assert cli.main(["check", path]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("alpha: 2 tasks"), captured.out
    assert NOTE.format(verb="checked") in captured.err


def test_check_json_names_the_function_and_keeps_stdout_one_object(path, capsys):
    assert cli.main(["check", path, "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["func"] == "alpha"


def test_check_with_func_takes_that_one_and_says_nothing(path, capsys):
    assert cli.main(["check", path, "--func", "zeta"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("zeta: 1 task"), captured.out
    assert "note:" not in captured.err


def test_explain_takes_the_first_by_name(path, capsys):
    assert cli.main(["explain", "materialize_result_buffers", path]) == 0
    captured = capsys.readouterr()
    assert NOTE.format(verb="explained") in captured.err
    assert "alpha" in captured.out and "zeta" not in captured.out
