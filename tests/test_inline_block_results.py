"""A block (``pl.at``) in an inline function that binds a variable of the caller's (a parameter,
which the call substitutes: reference-surface.md section 5): the block's kernel returns it where
code after the call reads it before rebinding it (in the caller, or in an inline function around
the call), and only there. Before, only the copy of the inline function's body was asked, so a
block binding the parameter it returns had no result (found by the attack's blocks grammar, 64)."""

from __future__ import annotations

import textwrap

from conftest import load_program

import nanopass

HEADER = '''\
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def use(self, a: pl.Tensor[[16, 16], pl.FP32], o: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return o

    @pl.function(type=pl.FunctionType.Inline)
    def fill(self, p: pl.Tensor[[16, 16], pl.FP32], q: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="blk"):
            q = pl.add(p, p)
        return q

    @pl.function(type=pl.FunctionType.Inline)
    def double(self, p: pl.Tensor[[16, 16], pl.FP32], q: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="blk"):
            q = pl.add(q, q)
        return q

    @pl.function(type=pl.FunctionType.Inline)
    def fill_twice(self, p: pl.Tensor[[16, 16], pl.FP32], q: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        q = self.fill(p, q)
        return q

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.create_tensor([16, 16], dtype=pl.FP32)
'''


def _blk(tmp_path, body: str):
    path = tmp_path / "prog.py"
    path.write_text(HEADER + textwrap.indent(textwrap.dedent(body), " " * 8) + "        return out\n")
    program = load_program(path)
    [k] = [k for k in program.surface().kernels if k.name == "blk"]
    return k, nanopass.generate_orchestration(program).code


def _reader_reads_block_output(code: str) -> bool:
    reader = code.split("// Task 1")[1]
    return "params_t0.add_output(ret0__out);" in code and "add_input(ret0__out);" in reader


def test_the_parameter_a_block_binds_and_the_function_returns_leaves_the_block(tmp_path):
    k, code = _blk(tmp_path, "t = self.fill(x, t)\nout = self.use(t, out)\n")
    assert len(k.results) == 1 and _reader_reads_block_output(code)


def test_a_call_as_a_statement_rebinds_the_callers_variable(tmp_path):
    k, code = _blk(tmp_path, "self.fill(x, t)\nout = self.use(t, out)\n")
    assert len(k.results) == 1 and _reader_reads_block_output(code)


def test_through_an_inline_function_around_the_call(tmp_path):
    k, code = _blk(tmp_path, "t = self.fill_twice(x, t)\nout = self.use(t, out)\n")
    assert len(k.results) == 1 and _reader_reads_block_output(code)


def test_a_read_above_the_call_in_the_next_iteration(tmp_path):
    k, code = _blk(tmp_path, "for i in pl.range(3):\n    out = self.use(t, out)\n    self.fill(x, t)\n")
    assert len(k.results) == 1


def test_no_result_where_the_caller_rebinds_the_variable_first(tmp_path):
    k, _ = _blk(tmp_path, "self.fill(x, t)\nt = pl.create_tensor([16, 16], dtype=pl.FP32)\nout = self.use(t, out)\n")
    assert len(k.results) == 0


def test_no_result_where_nothing_reads_the_variable_after_the_call(tmp_path):
    k, _ = _blk(tmp_path, "self.fill(x, t)\nout = self.use(x, out)\n")
    assert len(k.results) == 0


def test_no_result_where_the_block_reads_the_parameter_and_nothing_reads_the_variable_after(tmp_path):
    """The block reads ``q`` (the caller's ``t``) and binds it; nothing reads ``t`` after the call.
    The copy's reads of ``q`` are located where the function reads it, not at the caller's
    argument (which, after the block in the text, made the block's ``t`` look read: a dead
    result); with a read after the call the result is there."""
    k, _ = _blk(tmp_path, "t = self.double(x, t)\nout = self.use(x, out)\n")
    assert len(k.results) == 0
    k, code = _blk(tmp_path, "t = self.double(x, t)\nout = self.use(t, out)\n")
    assert len(k.results) == 1 and "add_input(ret0__out);" in code.split("// Task 1")[1]
