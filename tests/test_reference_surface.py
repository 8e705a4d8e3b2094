"""The constructs of the existing compiler's DSL that ``shared/spec/reference-surface.md`` lists.

Each construct has a golden program ``tests/golden/surface_<name>.py`` (its C++ in both ABIs:
``.expected.cpp`` is compared by ``test_golden``, ``.expected.l2.cpp`` here, when present), a run
of the hazard checker on it, and its misuses, each a located user error.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conftest import REPO, compile_check, load_program

import nanopass
from nanopass.errors import UserError
from nanopass.tools.check import check_program

GOLDEN = REPO / "tests" / "golden"
SURFACE = sorted(GOLDEN.glob("surface_*.py"))

# golden program -> (values of its parameters for the checker, tasks the run submits)
RUNS = {
    "surface_views": ({}, 4),
}


def test_every_surface_golden_has_a_run_here():
    assert sorted(p.stem for p in SURFACE) == sorted(RUNS)


@pytest.mark.parametrize("source", SURFACE, ids=[p.stem for p in SURFACE])
def test_surface_golden_under_l2(source, tmp_path):
    expected = source.with_name(source.stem + ".expected.l2.cpp")
    if not expected.exists():
        pytest.skip(f"{expected.name} is written once the --abi l2 spelling lands")
    code = nanopass.generate_orchestration(load_program(source), abi="l2").code
    assert code == expected.read_text()
    compile_check(code, tmp_path, source.stem + ".cpp")


@pytest.mark.parametrize("source", SURFACE, ids=[p.stem for p in SURFACE])
def test_surface_golden_has_no_hazard(source):
    values, tasks = RUNS[source.stem]
    result = check_program(load_program(source), values)
    assert result.fatal is None
    assert not result.failing, result.lines()
    assert not result.mismatches
    assert len(result.emission.tasks()) == tasks


HEADER = '''\
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, src: pl.Tensor[[8, 32], pl.FP32], dst: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, big: pl.Tensor[[24, 32], pl.FP32], res: pl.Out[pl.Tensor[[8, 32], pl.FP32]],
             n: pl.Scalar[pl.INT32]) -> pl.Tensor[[8, 32], pl.FP32]:
'''
BODY_LINE = HEADER.count("\n") + 1  # the line of the body's first statement


def compile_body(tmp_path: Path, body: str, **options):
    path = tmp_path / "prog.py"
    path.write_text(HEADER + textwrap.indent(textwrap.dedent(body), " " * 8))
    return nanopass.generate_orchestration(load_program(path), **options)


def error_of(tmp_path: Path, body: str) -> UserError:
    with pytest.raises(UserError) as info:
        compile_body(tmp_path, body)
    return info.value


# name -> (body, the text the error points at (its first occurrence, on the body's first line), words of the message)
ERRORS = {
    "reshape count": ("r = pl.reshape(big, [8, 8])\nres = self.k(r, res)\nreturn res\n", "[8, 8]",
                      "pl.reshape cannot change the element count (768 to 64)"),
    "transpose axis": ("r = pl.transpose(big, 0, 2)\nreturn res\n", "2)", "axis2 is out of range"),
    "view layout": ("r = pl.tensor.view(big, [32, 24], layout=pl.NZ)\nreturn res\n", "pl.NZ",
                    "lowers only a shape change of an ND tensor"),
    "view without shape": ("r = pl.tensor.view(big, layout=pl.ND)\nreturn res\n", "pl.tensor", "pl.tensor.view needs shape="),
    "slice drop_dims": ("r = pl.slice(big, [1, 32], [0, 0], drop_dims=[0])\nreturn res\n", "[0])",
                        "drop_dims is not supported"),
    "slice outside": ("r = pl.slice(big, [8, 32], [20, 0], clamp=True)\nreturn res\n", "8,",
                      "the slice [20, 28) is outside the dimension of extent 24"),
    "slice rank": ("r = pl.slice(big, [8], [0])\nreturn res\n", "pl.slice", "pl.slice of a rank-2 tensor needs"),
    "slice pad_value": ("r = pl.slice(big, [8, 32], [0, 0], pad_value=0)\nreturn res\n", "0)",
                        "pl.slice has no keyword argument 'pad_value'"),
    "slice clamp": ("r = pl.slice(big, [8, 32], [0, 0], clamp=1)\nreturn res\n", "1)", "clamp= must be True or False"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_misuse_is_a_located_user_error(name, tmp_path):
    body, at, words = ERRORS[name]
    error = error_of(tmp_path, body)
    assert words in error.message
    first = textwrap.dedent(body).splitlines()[0]
    assert (error.span.line, error.span.display_col) == (BODY_LINE, 8 + first.index(at) + 1)


def test_slice_metadata_keywords_print_nothing(tmp_path):
    plain = compile_body(tmp_path, "w = pl.slice(big, [8, 32], [8, 0])\nres = self.k(w, res)\nreturn res\n").code
    tagged = compile_body(tmp_path, """\
        w = pl.tensor.slice(big, [8, 32], [8, 0], valid_shape=[n, 32], pad_value=0.0, clamp=True)
        res = self.k(w, res)
        return res
    """).code
    assert tagged == plain
