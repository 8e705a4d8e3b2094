"""Compiler bugs the front-end fuzzer found (issue 11), each as its minimised program."""

from __future__ import annotations

import textwrap

import pytest

from conftest import compile_check, load_program

import nanopass

KERNELS = '''\
import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def work(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def produce(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def scalar(self, x: pl.Tensor[[16, 16], pl.FP32], s: pl.Scalar[pl.INT32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
'''


def compile_source(tmp_path, signature: str, body: str):
    path = tmp_path / "prog.py"
    path.write_text(KERNELS + "    " + signature + "\n" + textwrap.indent(textwrap.dedent(body), " " * 8))
    return path, nanopass.generate_orchestration(load_program(path))


def user_error(tmp_path, signature: str, body: str) -> nanopass.UserError:
    with pytest.raises(nanopass.UserError) as caught:
        compile_source(tmp_path, signature, body)
    return caught.value


SIGNATURE = "def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:"


def test_an_unread_runtime_allocated_output_is_not_bound(tmp_path):
    # issue 11: `const Tensor& fresh = task_0_outs.get_ref(0);` was emitted unread: g++ -Wall -Werror refused it
    _, result = compile_source(tmp_path, SIGNATURE, "fresh, tid = pl.submit(self.produce, x)\nreturn y\n")
    assert "fresh" not in result.code and "rt_submit_aiv_task(0, params_t0);" in result.code
    compile_check(result.code, tmp_path)


def test_a_dynamic_dimension_only_in_the_return_type_is_a_user_error(tmp_path):
    # issue 11: an internal error in remap_output_aliases ("no C++ name for 'M'")
    signature = SIGNATURE.replace("-> pl.Tensor[[16, 16], pl.FP32]", '-> pl.Tensor[[16, pl.dynamic("M")], pl.FP32]')
    error = user_error(tmp_path, signature, "return y\n")
    assert error.message == (
        "the return type uses dynamic dimension 'M', which is not the extent of any tensor parameter"
    )
    assert error.span.line == KERNELS.count("\n") + 1


def test_assemble_whose_target_is_created_after_its_source(tmp_path):
    # issue 11: moving the target's create up shifted the assemble's index by one: a duplicate definition
    body = """\
    part = pl.create_tensor([16, 16], dtype=pl.FP32)
    whole = pl.create_tensor([16, 16], dtype=pl.FP32)
    part = self.produce(x, part)
    whole = pl.assemble(whole, part, [0, 0])
    y = self.work(whole, y)
    return y
    """
    _, result = compile_source(tmp_path, SIGNATURE, body)
    assert "Tensor part = whole.view(part_shapes, part_offsets);" in result.code
    compile_check(result.code, tmp_path)


def test_no_phase_fence_on_the_carry_of_an_inner_loop(tmp_path):
    # issue 11: the barrier for the inner loop's carry `ids` was placed before the outer loop, where
    # `ids` does not exist yet: a user error without a position ("deps=[ids] cannot be honored")
    body = """\
    with pl.manual_scope():
        first = pl.array.create(8, pl.TASK_ID)
        for phase, (ids,) in pl.range(8, init_values=(first,)):
            for step, (ids,) in pl.range(8, init_values=(first,)):
                y, t = pl.submit(self.work, x, y, deps=[ids])
                nxt = pl.array.create(8, pl.TASK_ID)
                inner = pl.yield_(nxt)
            nxt = pl.array.create(8, pl.TASK_ID)
            outer = pl.yield_(nxt)
    return y
    """
    _, result = compile_source(tmp_path, SIGNATURE, body)
    assert "phase_fence_barrier" not in result.code
    compile_check(result.code, tmp_path)


@pytest.mark.parametrize("dtype, use", [
    ("pl.TASK_ID", "for i, (ids,) in pl.range(2, init_values=(arr,)):\n    y, t = pl.submit(self.work, x, y, deps=[ids])\n"
                   "    nxt = pl.array.create(4, pl.TASK_ID)\n    out = pl.yield_(nxt)"),
    ("pl.INT32", "v = arr[0]\ny = self.scalar(x, v, y)"),
])
def test_an_array_created_in_a_scope_and_read_after_it(tmp_path, dtype, use):
    # issue 11: hoist_scope_escapes declared it ahead of the scope, which lower_to_emission cannot
    # do for an array ("cannot declare 'arr' ahead of its value"); the array is now created before the scope
    body = f"with pl.manual_scope():\n    arr = pl.array.create(4, {dtype})\n{use}\nreturn y\n"
    _, result = compile_source(tmp_path, SIGNATURE, body)
    code = result.code
    assert code.index(" arr[4]") < code.index("PTO2_SCOPE(PTO2ScopeMode::MANUAL)")
    compile_check(result.code, tmp_path)


def test_a_create_whose_shape_is_computed_in_an_earlier_scope_stays_after_it(tmp_path):
    # issue 11: batch_tensor_creates moved the create to the block's start, before the scope that
    # computes `rows`: g++ refused `{static_cast<uint32_t>(rows), 16}` ("'rows' was not declared")
    signature = SIGNATURE.replace("]]) ->", "]], n: pl.Scalar[pl.INT64]) ->")
    body = """\
    with pl.manual_scope():
        rows = n * 2
    t = pl.create_tensor([rows, 16], dtype=pl.FP32)
    t = self.produce(x, t)
    return y
    """
    _, result = compile_source(tmp_path, signature, body)
    assert result.code.index("rows = n * 2;") < result.code.index("static_cast<uint32_t>(rows)")
    compile_check(result.code, tmp_path)


def test_a_view_made_in_a_scope_and_read_after_it(tmp_path):
    # issue 11: the view was declared before the scope and assigned from a temporary that was
    # never emitted: g++ refused `flat = flat_value;` ("'flat_value' was not declared")
    body = """\
    big = pl.create_tensor([16, 16], dtype=pl.FP32)
    with pl.manual_scope():
        big = self.produce(x, big)
        flat = pl.tensor.reshape(big, [16, 16])
        turned = pl.tensor.transpose(big, 0, 1)
    y = self.work(flat, y)
    y = self.work(turned, y)
    return y
    """
    _, result = compile_source(tmp_path, SIGNATURE, body)
    assert "Tensor flat_value = big.reshape(" in result.code and "Tensor turned_value = big.transpose(0, 1);" in result.code
    compile_check(result.code, tmp_path)


def test_an_array_too_large_for_the_stack_is_a_user_error(tmp_path):
    # issue 11: `K = 2 ** 80; pl.array.create(K, pl.TASK_ID)` printed `PTO2TaskId tids[1208925819614629174706176];`
    # which g++ refused ("integer constant is too large for its type")
    body = "with pl.manual_scope():\n    tids = pl.array.create(2 ** 80, pl.TASK_ID)\n    y, u = pl.submit(self.work, x, y, deps=[tids])\nreturn y\n"
    error = user_error(tmp_path, SIGNATURE, body)
    assert error.message == f"an array size must be a constant from 1 to 65536, got {2 ** 80}"
    assert (error.span.line, error.span.col) == (KERNELS.count("\n") + 3, 35)
    _, result = compile_source(tmp_path, SIGNATURE, body.replace("2 ** 80", "65536"))
    compile_check(result.code, tmp_path)


@pytest.mark.parametrize("annotation, message, col", [
    ("pl.Tensor[[16, 2 ** 32], pl.FP32]", "a dimension must be below 2**32 (the runtime's extents are uint32_t), got 4294967296", 37),
    ("pl.Tensor[[0, 16], pl.FP32]", "a dimension must be positive, got 0", 33),
    ("pl.Tensor[[16, 16], pl.FP64]", "the runtime has no tensor dtype for FP64", 42),
])
def test_a_parameter_type_the_runtime_cannot_hold_is_a_user_error(tmp_path, annotation, message, col):
    # issue 11: these compiled silently, though the runtime cannot hold them: its extents are
    # uint32_t (2**32 wraps to 0) and positive, and it has no FP64 tensor dtype (create_tensor refused all three)
    signature = SIGNATURE.replace("x: pl.Tensor[[16, 16], pl.FP32]", f"x: {annotation}")
    error = user_error(tmp_path, signature, "return y\n")
    assert error.message == message
    assert (error.span.line, error.span.col) == (KERNELS.count("\n") + 1, col)


# Messages the review of the corpus (tests/corpus) found unhelpful: Python's class names, doubled quotes.
MODULE_VALUES = {
    "pl.FP16": "'K' is a dtype (pl.FP16); only int, float and bool values can be used here",
    "pl.Tensor[[16, 16], pl.FP32]": "'K' is a type (pl.Tensor[[16, 16], pl.FP32]); only int, float and bool values can be used here",
    "'text'": "'K' is the string 'text'; only int, float and bool values can be used here",
}


@pytest.mark.parametrize("value", sorted(MODULE_VALUES))
def test_a_module_constant_of_the_wrong_kind_is_named_as_the_user_wrote_it(tmp_path, value):
    path = tmp_path / "prog.py"
    source = KERNELS.replace("import nanopass.dsl as pl\n", f"import nanopass.dsl as pl\nK = {value}\n") + "    " + SIGNATURE
    path.write_text(source + "\n        for i in pl.range(K):\n            y = self.work(x, y)\n        return y\n")
    with pytest.raises(nanopass.UserError) as caught:
        nanopass.generate_orchestration(load_program(path))
    assert caught.value.message == MODULE_VALUES[value]


@pytest.mark.parametrize("body, message", [
    ("t = pl.create_tensor([16, '16'], dtype=pl.FP32)\nreturn y\n", "the string '16' cannot be used as a value here"),
    ("t = pl.create_tensor([16, 16], dtype='FP32')\nreturn y\n", "unknown dtype \"'FP32'\""),
    ("t = pl.dynamic('M')(x)\nreturn y\n", "unsupported function call \"pl.dynamic('M')(x)\""),
    ("b = 1 + True\nreturn y\n", "arithmetic needs numbers, got a pl.Scalar[pl.BOOL]"),
])
def test_source_text_in_a_message_is_quoted_once(tmp_path, body, message):
    error = user_error(tmp_path, SIGNATURE, body)
    assert error.message == message


def test_a_bad_function_type_names_what_was_written(tmp_path):
    path = tmp_path / "prog.py"
    source = KERNELS.replace("type=pl.FunctionType.AIV)\n    def work", "type=3)\n    def work")
    path.write_text(source + "    " + SIGNATURE + "\n        return y\n")
    with pytest.raises(nanopass.UserError) as caught:
        nanopass.generate_orchestration(load_program(path))
    assert caught.value.message == "unsupported @pl.function type '3'"


def test_a_kernel_that_returns_a_parameter_of_another_type_is_a_user_error(tmp_path):
    # issue 11: `return row` (a scalar parameter) as a tensor result made the orchestration alias the
    # result to a scalar; g++ refused the C++ ("'out__ssa_v2' was not declared in this scope")
    source = KERNELS.replace("-> pl.Tensor[[16, 16], pl.FP32]:\n        return y\n\n    @pl.function(type=pl.FunctionType.AIV)\n    def produce",
                             "-> pl.Tensor[[16, 16], pl.FP32]:\n        return x\n\n    @pl.function(type=pl.FunctionType.AIV)\n    def produce", 1)
    source = source.replace("pl.Scalar[pl.INT32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:\n        return y",
                            "pl.Scalar[pl.INT32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:\n        return s")
    path = tmp_path / "prog.py"
    path.write_text(source + "    " + SIGNATURE + "\n        y = self.scalar(x, 3, y)\n        return y\n")
    with pytest.raises(nanopass.UserError) as caught:
        nanopass.generate_orchestration(load_program(path))
    assert caught.value.message == ("kernel 'scalar' returns parameter 's', a pl.Scalar[pl.INT32], as its "
                                    "pl.Tensor[[16, 16], pl.FP32] result")
    assert caught.value.span.line == source.splitlines().index("        return s") + 1
    # returning an input tensor of the result's type stays allowed (the 'work' kernel above returns x)
    path.write_text(source.replace("return s", "return y") + "    " + SIGNATURE + "\n        y = self.work(x, y)\n        return y\n")
    compile_check(nanopass.generate_orchestration(load_program(path)).code, tmp_path)


UNSIGNED = "def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.UINT64], m: pl.Scalar[pl.INT64], u: pl.Scalar[pl.UINT32], w: pl.Scalar[pl.INT32]) -> pl.Tensor[[16, 16], pl.FP32]:"


@pytest.mark.parametrize("body, message", [
    # issue 11: `for (int64_t i = 0; i < n; ...)` with a uint64_t n: g++ -Werror=sign-compare refused it
    ("for i in pl.range(n):", "a loop stop cannot be a pl.Scalar[pl.UINT64]: C++ compares the int64_t counter with "
                              "it as uint64_t, where a negative counter is a huge one"),
    ("for i in pl.parallel(m, n):", "a loop stop cannot be a pl.Scalar[pl.UINT64]: C++ compares the int64_t "
                                    "counter with it as uint64_t, where a negative counter is a huge one"),
    ("if n > m:", "cannot compare UINT64 with INT64: C++ compares them as uint64_t, where a negative value is a huge one"),
    ("if u == w:", "cannot compare UINT32 with INT32: C++ compares them as uint32_t, where a negative value is a huge one"),
    ("if n >= -1:", "cannot compare UINT64 with -1: C++ compares them as uint64_t, where a negative value is a huge one"),
    ("if m + n < m:", "cannot compare UINT64 with INT64: C++ compares them as uint64_t, where a negative value is a huge one"),
])
def test_signed_and_unsigned_that_cpp_would_compare_as_unsigned_are_a_user_error(tmp_path, body, message):
    error = user_error(tmp_path, UNSIGNED, f"{body}\n    y = self.work(x, y)\nreturn y\n")
    assert error.message == message
    assert error.hint in ("declare it pl.INT64", "give both sides the same signedness")


@pytest.mark.parametrize("body", [
    "for i in pl.range(n, m):", "for i in pl.range(u):", "for i in pl.range(0, 8, n):", "if u < m:", "if n > 3:",
    "if m + u > 2:", "if n >> m > 0:",
])
def test_signed_and_unsigned_that_cpp_compares_by_value_compile(tmp_path, body):
    _, result = compile_source(tmp_path, UNSIGNED, f"{body}\n    y = self.work(x, y)\nreturn y\n")
    compile_check(result.code, tmp_path)


@pytest.mark.parametrize("returns, message", [
    ("pl.Tensor[[16], pl.FP32]", "'orch' returns a pl.Tensor[[16, 16], pl.FP32] where its return type declares pl.Tensor[[16], pl.FP32]"),
    ("pl.Tensor[[16, 16], pl.INT32]", "'orch' returns a pl.Tensor[[16, 16], pl.FP32] where its return type declares pl.Tensor[[16, 16], pl.INT32]"),
])
def test_an_orchestration_result_of_another_type_than_declared_is_a_user_error(tmp_path, returns, message):
    # issue 11: found reviewing the fuzzer's compiling mutants (`y: pl.Out[pl.Tensor[[64, 64], ...]]`
    # returned as a declared pl.Tensor[[16], ...]): the declared return type was never checked
    signature = SIGNATURE.replace("-> pl.Tensor[[16, 16], pl.FP32]:", f"-> {returns}:")
    error = user_error(tmp_path, signature, "y = self.work(x, y)\nreturn y\n")
    assert error.message == message
    assert (error.span.line, error.span.col) == (KERNELS.count("\n") + 3, 15)
