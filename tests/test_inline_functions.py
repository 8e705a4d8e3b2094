"""``pl.FunctionType.Inline`` (reference-surface.md section 5): each call is replaced by a copy of
the body, locals renamed ``<name>_inline<k>``; misuse is a located user error."""

from __future__ import annotations

import textwrap

import pytest

from conftest import load_program

import nanopass
from nanopass.errors import UserError

HEADER = '''\
import nanopass.dsl as pl

K = 2


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst
'''

ORCH = '''
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
'''


def compile_(tmp_path, inline: str, body: str, abi: str = "seed"):
    path = tmp_path / "prog.py"
    path.write_text(HEADER + textwrap.indent(textwrap.dedent(inline), "    ") + ORCH
                    + textwrap.indent(textwrap.dedent(body), "        "))
    return nanopass.generate_orchestration(load_program(path), abi=abi)


def error(tmp_path, inline: str, body: str) -> str:
    with pytest.raises(UserError) as info:
        compile_(tmp_path, inline, body)
    span = info.value.span
    return f"{span.line}:{span.col + 1}: {info.value.message}"


COPY = '''
@pl.function(type=pl.FunctionType.Inline)
def copy(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    tmp = pl.create_tensor([16, 16], dtype=pl.FP32)
    tmp = self.step(src, tmp)
    dst = self.step(tmp, dst)
    return dst
'''


def test_each_call_gets_its_own_copy_with_a_shared_counter(tmp_path):
    code = compile_(tmp_path, COPY, "y = self.copy(x, y)\ny = self.copy(y, y)\nreturn y\n").code
    assert "alloc_tensors(tmp_inline0_ci, tmp_inline1_ci)" in code
    assert code.count("rt_submit_aiv_task(0, params_t") == 4
    assert "copy" not in code.replace("// Task", "")  # no kernel, no id for the inline function


def test_the_inline_function_has_no_kernel_id(tmp_path):
    result = compile_(tmp_path, COPY, "y = self.copy(x, y)\nreturn y\n")
    assert result.kernel_ids == {"step": 0}


def test_a_rebound_out_parameter_rebinds_the_callers_variable(tmp_path):
    code = compile_(tmp_path, COPY, "z = pl.create_tensor([16, 16], dtype=pl.FP32)\nz = self.copy(x, z)\n"
                    "y = self.step(z, y)\nreturn y\n").code
    assert "params_t2.add_input(z);" in code  # the third task reads what the inlined second wrote


def test_a_cycle_of_inline_functions_is_an_error(tmp_path):
    inline = '''
    @pl.function(type=pl.FunctionType.Inline)
    def f(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        b = self.g(a, b)
        return b

    @pl.function(type=pl.FunctionType.Inline)
    def g(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        b = self.f(a, b)
        return b
    '''
    assert error(tmp_path, inline, "y = self.f(x, y)\nreturn y\n") == \
        "19:13: inline function 'f' calls itself (f -> g -> f)"


@pytest.mark.parametrize("inline, body, message", [
    ('''
     @pl.function(type=pl.FunctionType.Inline)
     def f(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
         if K > 1:
             return b
         return b
     ''', "y = self.f(x, y)\nreturn y\n", "15:13: inline function 'f' may only return at its end"),
    ('''
     @pl.function(type=pl.FunctionType.Inline)
     def f(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
         a = self.step(b, b)
         return b
     ''', "y = self.f(x, y)\nreturn y\n", "14:9: inline function 'f' assigns its parameter 'a'"),
    ('''
     @pl.function(type=pl.FunctionType.Inline)
     def f(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
         b = self.step(x, b)
         return b
     ''', "y = self.f(x, y)\nreturn y\n",
     "14:23: inline function 'f' reads 'x', which is neither its parameter nor its variable, and the caller has a "
     "variable of that name"),
    (COPY, "y, tid = pl.submit(self.copy, x, y)\nreturn y\n",
     "21:28: 'copy' is an inline function: call it as self.copy(...), not as a task"),
    (COPY, "y = self.copy(x)\nreturn y\n", "21:13: inline function 'copy' expects 2 argument(s), got 1"),
    (COPY, "y = self.copy(pl.no_dep(x), y)\nreturn y\n",
     "21:23: pl.no_dep applies to task arguments, not to an inline function's"),
    (COPY, "y, z = self.copy(x, y)\nreturn y\n",
     "21:9: inline function 'copy' returns 1 value(s) but 2 name(s) receive them"),
    (COPY, "tmp_inline0 = pl.create_tensor([16, 16], dtype=pl.FP32)\ny = self.copy(x, y)\nreturn y\n",
     "14:9: inline function 'copy': its variable 'tmp' becomes 'tmp_inline0', which the caller already uses"),
])
def test_misuse_is_a_located_error(tmp_path, inline, body, message):
    assert error(tmp_path, inline, body) == message


def test_an_inline_function_called_as_a_statement_drops_its_result(tmp_path):
    code = compile_(tmp_path, COPY, "self.copy(x, y)\nreturn y\n").code
    assert "params_t1.add_output(ext_y);" in code


def test_the_no_exec_reader_inlines_the_same(tmp_path):
    from nanopass.static_loader import load_programs_static

    compile_(tmp_path, COPY, "y = self.copy(x, y)\nreturn y\n")
    path = tmp_path / "prog.py"
    assert load_programs_static(str(path))[0].surface() == load_program(path).surface()
