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


# A parameter rebound to another tensor (tools/attack/found/23): the call keeps reference-surface.md
# section 5's meaning (the caller's variable is rebound with it), and the front end warns where the
# caller's variable ends on another tensor than Python's reading leaves it on.

SWAP = '''
@pl.function(type=pl.FunctionType.Inline)
def swap(self, p: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], q: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
    t = q
    q = p
    p = t
    return p
'''
MAKE_Z = "z = pl.create_tensor([16, 16], dtype=pl.FP32)\nz = self.step(x, z)\n"


def warnings(tmp_path, inline: str, body: str) -> list[str]:
    result = compile_(tmp_path, inline, body)
    return [f"{w.span.line}:{w.span.col + 1}: {w.message}" for stage in result.stages for w in stage.warnings]


def test_a_parameter_left_on_another_tensor_is_warned_of_where_it_is_rebound(tmp_path):
    # y receives the result (both readings bind it to the returned z); z, passed as q, ends on y's
    # tensor under section 5 and is left alone by Python: a warning at `q = p`, which stays compiled
    # as section 5 says (the task after the call writes y's buffer through z)
    body = MAKE_Z + "y = self.swap(y, z)\nz = self.step(x, z)\nreturn z\n"
    assert warnings(tmp_path, SWAP, body) == [
        "15:9: inline function 'swap' rebinds its parameter 'q' to another tensor: the call at line 23 substitutes "
        "its variable 'z' for 'q' (reference-surface.md section 5), so 'z' names that tensor after the call, where "
        "Python would leave it unchanged"]
    assert "params_t1.add_input(ext_x);\n        params_t1.add_output(ext_y);" in compile_(tmp_path, SWAP, body).code


def test_a_call_written_as_a_statement_is_warned_of_for_each_parameter_it_moves(tmp_path):
    found = warnings(tmp_path, SWAP, MAKE_Z + "self.swap(y, z)\nreturn y\n")
    assert [line.split(": ", 1)[0] for line in found if "inline function" in line] == ["15:9", "16:9"]  # q = p, p = t


@pytest.mark.parametrize("inline, body", [
    (COPY, "y = self.copy(x, y)\nreturn y\n"),  # dst = self.step(tmp, dst): the kernel writes dst in place
    (COPY, "z = pl.create_tensor([16, 16], dtype=pl.FP32)\nself.copy(x, z)\ny = self.step(z, y)\nreturn y\n"),
    ('''
     @pl.function(type=pl.FunctionType.Inline)
     def fill(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
         part = pl.create_tensor([16, 16], dtype=pl.FP32)
         part = self.step(src, part)
         dst = pl.assemble(dst, part, [0, 0])
         for i, (acc,) in pl.range(2, init_values=(dst,)):
             acc = self.step(src, acc)
             dst = pl.yield_(acc)
         return dst
     ''', "z = pl.create_tensor([16, 16], dtype=pl.FP32)\nself.fill(x, z)\ny = self.step(z, y)\nreturn y\n"),
    (SWAP.replace("    p = t\n", "    q = t\n"), MAKE_Z + "self.swap(y, z)\ny = self.step(z, y)\nreturn y\n"),
    # (q moved and moved back)
])
def test_a_parameter_written_in_place_or_receiving_the_result_is_not_warned_of(tmp_path, inline, body):
    assert warnings(tmp_path, inline, body) == []


def test_the_warning_is_printed_located_and_the_compile_goes_on(tmp_path):
    from conftest import run_cli

    compile_(tmp_path, SWAP, MAKE_Z + "y = self.swap(y, z)\nz = self.step(x, z)\nreturn z\n")
    path = tmp_path / "prog.py"
    done = run_cli("run", str(path))
    assert done.returncode == 0 and done.stdout.startswith("// Orchestration Function: orch")
    assert f"{path}:15:9: warning: inline function 'swap' rebinds its parameter 'q'" in done.stderr
    assert run_cli("run", str(path), "-q").stderr == ""
    checked = run_cli("check", str(path))
    assert checked.returncode == 0 and f"{path}:15:9: warning: inline function 'swap'" in checked.stderr
    compile_(tmp_path, COPY, "y = self.copy(x, y)\nreturn y\n")
    assert "warning" not in run_cli("run", str(path)).stderr


def test_a_parameter_moved_by_an_inline_function_it_is_passed_to_is_warned_of_in_the_caller(tmp_path):
    # outer passes p to inner, which returns its own parameter moved to a new tensor: the caller of
    # outer sees its variable moved, at outer's `p = self.inner(x, p)`
    inline = '''
    @pl.function(type=pl.FunctionType.Inline)
    def inner(self, x: pl.Tensor[[16, 16], pl.FP32], q: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        q = pl.create_tensor([16, 16], dtype=pl.FP32)
        q = self.step(x, q)
        return q

    @pl.function(type=pl.FunctionType.Inline)
    def outer(self, x: pl.Tensor[[16, 16], pl.FP32], p: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        p = self.inner(x, p)
        return p
    '''
    found = warnings(tmp_path, inline, MAKE_Z + "self.outer(x, z)\ny = self.step(z, y)\nreturn y\n")
    assert [line.split(": warning", 1)[0].split(": inline")[0] for line in found] == ["20:9"]
    assert "inline function 'outer' rebinds its parameter 'p'" in found[0]


ASSEMBLED_THEN_WRITTEN = '''
@pl.function(type=pl.FunctionType.Inline)
def fill(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.InOut[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
    tmp = pl.create_tensor([16, 16], dtype=pl.FP32)
    tmp = self.step(src, tmp)
    dst = pl.assemble(dst, tmp, [0, 0])
    tmp = self.step(src, tmp)
    return dst
'''


def test_an_error_quoting_a_copys_variable_notes_the_functions_name_for_it(tmp_path):
    # a pass after the front end knows the copy's names only ('tmp_inline0'); the error is located
    # in the inline function, whose text says 'tmp': the CLI notes which variable that is
    from conftest import run_cli

    path = tmp_path / "prog.py"
    path.write_text(HEADER + textwrap.indent(textwrap.dedent(ASSEMBLED_THEN_WRITTEN), "    ") + '''
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        y = self.fill(x, y)
        return y
''')
    done = run_cli("run", str(path))
    assert done.returncode == 1 and "'tmp_inline0' is used after it was assembled" in done.stderr, done.stderr
    assert ("note: 'tmp_inline0' is the variable 'tmp' of the inline function 'fill', renamed in the copy made for "
            "the call at line 22") in done.stderr
    assert ("note: 'y' is the argument the call at line 22 passes for the parameter 'dst' of the inline "
            "function 'fill'") in done.stderr
    assert "Traceback" not in done.stderr


def test_inline_original_reads_back_a_copys_name():
    from nanopass.passes.naming import inline_copy_name, inline_original

    assert inline_original(inline_copy_name("tmp", 3)) == "tmp"
    assert inline_original(inline_copy_name(inline_copy_name("t_2", 0), 1)) == "t_2"
    assert inline_original("tmp") is None and inline_original("inline0") is None and inline_original("t_inline") is None
