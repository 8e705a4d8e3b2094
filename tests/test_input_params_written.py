"""check_output_params_written warns, at the first write, when the orchestration function writes a
plain (``In``) tensor parameter: the existing compiler accepts it (its direction rewrite makes the
argument OutputExisting, reference-behaviour.md 2.2) and its ``orchestration_signature`` lists the
parameter ``IN`` from the declared type (reference-surface.md section 4), so the caller is told the
buffer is only read. Before, ``x = self.copy(y, x)`` or ``pl.tensor.write(x, ...)`` on such a
parameter compiled silently."""

from __future__ import annotations

import pytest

import nanopass
from conftest import load_program

HEAD = '''import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def half(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Tensor[[16, 16], pl.FP32],
            io: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
'''
# the body starts at line 19, indented 8 columns; Span.col counts from 0


def _warnings(body: str, tmp_path):
    path = tmp_path / "p.py"
    path.write_text(HEAD + "".join(f"        {line}\n" for line in body.strip().splitlines()) + "        return io\n")
    result = nanopass.generate_orchestration(load_program(path))
    warned = [w for s in result.stages for w in s.warnings if "is an input parameter" in w.message]
    return result, warned


@pytest.mark.parametrize("body, name, by, line, col", [
    # the kernel's Out argument: the warning at the call, 4 columns into "x = self.copy(y, x)"
    ("x = self.copy(y, x)\nio = self.copy(x, io)", "x", "'copy'", 19, 12),
    # a host element write: at the statement (the second line of the body)
    ("io = self.copy(y, io)\npl.tensor.write(y, [0, 0], 1.0)", "y", "pl.tensor.write", 20, 8),
    # through a view of x: at the call writing the view, 4 columns into "v = self.half(y, v)"
    ("v = pl.slice(x, [8, 16], [8, 0])\nv = self.half(y, v)\nio = self.copy(x, io)", "x", "'half'", 20, 12),
])
def test_a_write_of_an_input_parameter_warns_at_the_write(body, name, by, line, col, tmp_path):
    result, warned = _warnings(body, tmp_path)
    assert len(warned) == 1, warned
    warning = warned[0]
    assert warning.message.startswith(f"'{name}' is an input parameter of 'run' (declared at line 17) but {by} "
                                      "writes it here")
    assert (warning.span.line, warning.span.col) == (line, col)
    assert "pl.InOut" in warning.hint
    # the signature follows the declared types, as the existing compiler's does (section 4)
    assert result.metadata()["orchestration_signature"] == ["IN", "IN", "INOUT"]


def test_reading_the_inputs_and_writing_an_inout_warns_nothing(tmp_path):
    _, warned = _warnings("io = self.copy(x, io)\nv = pl.tensor.read(y, [0, 0])\nio = self.copy(y, io)", tmp_path)
    assert warned == []
