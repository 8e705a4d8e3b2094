"""An undefined variable's error names a defined one a typo away (the help line), as a block's
undefined name does (tests/test_block_free_names.py): ``tnp`` for ``tmp`` (a swap of neighbours
would be ``tmp`` -> ``tpm``; ``tnp`` is one substitution), ``yy`` for ``y`` (one insertion)."""

import pytest

from conftest import load_program

import nanopass

PROGRAM = '''import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[4, 4], pl.FP32], b: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return b

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, y: pl.Tensor[[4, 4], pl.FP32], out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        tmp = pl.create_tensor([4, 4], dtype=pl.FP32)
        tmp = self.k(y, tmp)
        out = self.k(USE, out)
        return out
'''


def _write(tmp_path, name: str):
    path = tmp_path / "typo.py"
    path.write_text(PROGRAM.replace("USE", name))
    return path


@pytest.mark.parametrize("typo, meant", [("tnp", "tmp"), ("yy", "y")])
def test_the_help_line_names_the_variable_one_edit_away(tmp_path, typo, meant):
    with pytest.raises(nanopass.UserError) as caught:
        nanopass.generate_orchestration(load_program(_write(tmp_path, typo)))
    error = caught.value
    assert f"undefined variable '{typo}'" in str(error)
    assert error.hint == f"did you mean '{meant}'?", error.hint


def test_no_help_line_when_nothing_is_close(tmp_path):
    with pytest.raises(nanopass.UserError) as caught:
        nanopass.generate_orchestration(load_program(_write(tmp_path, "weights")))
    assert caught.value.hint is None
