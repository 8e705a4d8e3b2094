"""A reshape of a transposed view is a user error: the runtime's ``Tensor::reshape`` asserts
``is_contiguous``, which ``transpose`` clears and every other view op copies (runtime-api.md
section 4; ``check_reshape_sources_contiguous``). Reshapes the runtime accepts still compile."""

from __future__ import annotations

import pytest

from conftest import load_program, run_cli

import nanopass
from nanopass.tools.check import check_program

HEADER = '''\
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def rd(self, a: pl.Tensor[[64], pl.FP32]):
        return

    @pl.function(type=pl.FunctionType.AIV)
    def upd(self, a: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return a

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]):
        t = pl.tensor.transpose(x, 0, 1)
'''


def write(tmp_path, body: str):
    path = tmp_path / "prog.py"
    text = HEADER + "".join(" " * 8 + line + "\n" for line in body.strip("\n").splitlines()) + "        return\n"
    path.write_text(text)
    return path, text


# name -> (body after `t = transpose(x)`, the reshaped name, the transposed name it may view)
REFUSED = {
    "the transpose": ("r = pl.tensor.reshape(t, [256])", "'t', a transposed view"),
    "a slice of it": ("v = pl.tensor.slice(t, [8, 8], [0, 0])\nr = pl.tensor.reshape(v, [64])",
                      "'v', which may be a view of the transposed 't'"),
    "pl.tensor.view of it": ("r = pl.tensor.view(t, [256])", "'t', a transposed view"),
    "a transpose of it": ("u = pl.tensor.transpose(t, 0, 1)\nr = pl.tensor.reshape(u, [256])",
                          "'u', which may be a view of the transposed 't'"),
    "an if result": ("u = x\nif n > 0:\n    u = t\nr = pl.tensor.reshape(u, [256])",
                     "'u', which may be a view of the transposed 't'"),
    "a loop carry": ("u = x\nfor i in pl.range(n):\n    r = pl.tensor.reshape(u, [256])\n    u = t",
                     "'u', which may be a view of the transposed 't'"),
    "a kernel's InOut result": ("u = self.upd(t)\nr = pl.tensor.reshape(u, [256])",
                                "'u', which may be a view of the transposed 't'"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_reshape_of_a_transposed_view_is_refused_at_the_reshape(tmp_path, name):
    body, what = REFUSED[name]
    path, text = write(tmp_path, body)
    with pytest.raises(nanopass.UserError) as caught:
        nanopass.generate_orchestration(load_program(path))
    error = caught.value
    assert f"cannot reshape {what} (line 16)" in error.message and "requires a contiguous tensor" in error.message
    assert "reshape(" in text.splitlines()[error.span.line - 1] or "view(" in text.splitlines()[error.span.line - 1]


def test_the_cli_prints_the_refusal_located_without_a_traceback(tmp_path):
    path, _ = write(tmp_path, "v = pl.tensor.slice(t, [8, 8], [0, 0])\nr = pl.tensor.reshape(v, [64])")
    result = run_cli("run", str(path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"{path}:18:9: error: cannot reshape 'v'")


ACCEPTED = {
    # a slice keeps its buffer's is_contiguous: the runtime reshapes it row-major from its origin
    "a slice of the buffer": "v = pl.tensor.slice(x, [8, 8], [0, 0])\nr = pl.tensor.reshape(v, [64])\nself.rd(r)",
    # the reshape comes first; its transpose is not reshaped
    "a transpose of a reshape": "f = pl.tensor.reshape(x, [16, 16])\nu = pl.tensor.transpose(f, 0, 1)\nu = self.upd(u)",
    # the loop carry holds the buffer only
    "a carry that never holds it": "u = x\nfor i in pl.range(n):\n    u = self.upd(u)\nr = pl.tensor.reshape(u, [256])",
}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_reshapes_of_contiguous_tensors_compile(tmp_path, name):
    path, _ = write(tmp_path, ACCEPTED[name] + "\nt = self.upd(t)")
    result = check_program(load_program(path), {"n": "2"}, gxx=True)
    assert result.failing == [] and result.fatal is None
