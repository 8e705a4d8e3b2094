"""A name the program binds is declared in the C++, so it must be an ASCII identifier
(``names.check_user_name``): Python accepts ``π = ...``, and the front end refuses it as a user
error at the name (it was an internal error of the ``Binder``'s grammar check before; the front
end builds its Binders unchecked on this proof)."""

from __future__ import annotations

import pytest

from conftest import load_program

from nanopass.errors import UserError

HEAD = '''import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
'''


@pytest.mark.parametrize("body, name, line, col", [
    ("        π = pl.create_tensor([16, 16], dtype=pl.FP32)\n        y = self.step(π, y)\n", "π", 12, 8),
    ("        for é in pl.range(n):\n            y = self.step(x, y)\n", "é", 12, 12),
])
def test_a_name_that_is_not_ascii_is_a_located_user_error(tmp_path, body, name, line, col):
    path = tmp_path / "p.py"
    path.write_text(HEAD + body + "        return y\n")
    with pytest.raises(UserError) as caught:
        load_program(path).surface()
    assert f"'{name}' is not a name the C++ can declare" in str(caught.value)
    assert (caught.value.span.line, caught.value.span.col) == (line, col)


def test_a_parameter_that_is_not_ascii_is_a_located_user_error(tmp_path):
    path = tmp_path / "p.py"
    path.write_text(HEAD.replace("self, x: pl.Tensor", "self, xé: pl.Tensor") + "        return y\n")
    with pytest.raises(UserError, match="'xé' is not a name the C.. can declare") as caught:
        load_program(path).surface()
    assert (caught.value.span.line, caught.value.span.col) == (11, 19)

