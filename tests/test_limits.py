"""Programs deeper or larger than the compiler handles end in a user error or compile (issue 11).

The compiler runs within Python's default recursion limit: the front end bounds how deep blocks
(48), pl.parallel loops (8) and expressions (100) nest, and every pass stays within that.
"""

from __future__ import annotations

import re
import sys

import pytest

from conftest import compile_check, load_program, run_cli

import nanopass
from nanopass.passes.frontend.parse_dsl import MAX_EXPR_DEPTH, MAX_NESTING, MAX_PARALLEL_NESTING
from nanopass.static_loader import load_programs_static

HEADER = '''\
import nanopass.dsl as pl


@pl.program
class Deep:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], s: pl.Scalar[pl.INT64], o: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], o: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
'''
FIRST_BODY_LINE = HEADER.count("\n") + 1


def program(lines: list[str]) -> str:
    return HEADER + "".join(" " * 8 + line + "\n" for line in lines + ["return o"])


def nested(headers: list[str], inner: list[str]) -> list[str]:
    out = []
    for depth, header in enumerate(headers):
        out.append("    " * depth + header)
    return out + ["    " * len(headers) + line for line in inner]


def compile_text(tmp_path, text: str, static: bool = False):
    path = tmp_path / "deep.py"
    path.write_text(text)
    program = load_programs_static(str(path))[0] if static else load_program(path)
    return path, nanopass.generate_orchestration(program)


def user_error(tmp_path, text: str, static: bool = False) -> nanopass.UserError:
    with pytest.raises(nanopass.UserError) as caught:
        compile_text(tmp_path, text, static)
    return caught.value


@pytest.mark.parametrize("static", [False, True], ids=["import", "no-exec"])
@pytest.mark.parametrize("expression", [
    "n" + " + 1" * 300,  # issue 11: once "expression nested too deeply" only by luck of the stack
    " and ".join(f"n > {i}" for i in range(300)),  # issue 11: once a RecursionError in print_cpp (exit 3)
    "-" * 300 + "n",
])
def test_an_expression_nested_too_deeply_is_a_user_error(tmp_path, expression, static):
    error = user_error(tmp_path, program([f"if {expression} != 0:" if "and" not in expression else f"if {expression}:",
                                          "    o = self.k(a, n, o)"]), static)
    assert error.message == f"expression nested more than {MAX_EXPR_DEPTH} deep"
    assert error.hint == "split it with intermediate variables"
    assert (error.span.line, error.span.col) == (FIRST_BODY_LINE, 11)


def test_a_constant_nested_too_deeply_is_a_user_error(tmp_path):
    error = user_error(tmp_path, program(["ids = pl.array.create(" + "1 + " * 300 + "1, pl.TASK_ID)"]))
    assert error.message == f"expression nested more than {MAX_EXPR_DEPTH} deep"
    assert error.span.line == FIRST_BODY_LINE


def test_an_expression_at_the_limit_compiles(tmp_path):
    terms = MAX_EXPR_DEPTH - 2  # n + 1 + ... : one BinOp per term, plus the leaf
    _, result = compile_text(tmp_path, program(["s = n" + " + 1" * terms, "o = self.k(a, s, o)"]))
    assert "n + 1 + 1" in result.code


def test_the_deepest_program_compiles_within_the_default_recursion_limit(tmp_path):
    # Python itself refuses more than 20 nested for/with blocks in a file it imports: ifs fill the rest
    headers = [f"for i{d} in pl.range(2):" if d % 3 == 0 else f"if n > {d}:" for d in range(MAX_NESTING)]
    headers[MAX_NESTING // 2] = "with pl.manual_scope():"
    inner = ["s = n" + " + 1" * (MAX_EXPR_DEPTH - 3), "o = self.k(a, s, o)"]
    assert sys.getrecursionlimit() <= 1000  # what a library user has
    for static in (False, True):
        _, result = compile_text(tmp_path, program(nested(headers, inner)), static)
    compile_check(result.code, tmp_path)
    too_deep = user_error(tmp_path, program(nested(headers + ["if n > 1:"], inner)), static=True)
    assert too_deep.message == f"blocks are nested more than {MAX_NESTING} deep"
    assert too_deep.span.line == FIRST_BODY_LINE + MAX_NESTING


def test_parallel_loops_nest_at_most_eight_deep(tmp_path):
    headers = [f"for i{d} in pl.parallel(2):" for d in range(MAX_PARALLEL_NESTING)]
    _, result = compile_text(tmp_path, program(nested(headers, ["o = self.k(a, n, o)"])), static=True)
    assert result.code.count("for (int64_t i") == MAX_PARALLEL_NESTING
    error = user_error(tmp_path, program(nested(headers + ["for j in pl.parallel(2):"], ["o = self.k(a, n, o)"])), static=True)
    assert error.message == f"pl.parallel loops are nested more than {MAX_PARALLEL_NESTING} deep"
    assert (error.span.line, error.span.col) == (FIRST_BODY_LINE + MAX_PARALLEL_NESTING, 8 + 4 * MAX_PARALLEL_NESTING)


def test_the_task_graph_of_deeply_nested_loops_is_drawn_quickly(tmp_path):
    # each loop is walked twice for its back edge: nested 40 deep, that was 2 ** 40 walks
    from nanopass.printer.dot import static_graph

    headers = [f"for i{d} in pl.range(2):" for d in range(40)]
    path, result = compile_text(tmp_path, program(nested(headers, ["o = self.k(a, n, o)"])), static=True)
    graph = static_graph(result.stages[-2].tree)
    assert len(graph.nodes) == 1


def test_a_file_too_deep_for_pythons_parser(tmp_path):
    # Python's own parser gives up (RecursionError or MemoryError, no position); with a raised
    # recursion limit it used to overflow the C stack instead (a segfault, exit 139)
    path = tmp_path / "deep.py"
    path.write_text(program(["s = n" + " + 1" * 100000, "o = self.k(a, s, o)"]))
    for flags in ((), ("--no-exec",)):
        result = run_cli("run", str(path), *flags)
        assert result.returncode == 1, (flags, result.returncode, result.stderr[:300])
        assert re.match(rf"{re.escape(str(path) if not flags else str(path))}:{FIRST_BODY_LINE}:1: error: the file is "
                        "nested too deeply for Python's parser$", result.stderr.splitlines()[0]), result.stderr[:300]


def test_too_many_indentation_levels_is_a_python_syntax_error(tmp_path):
    headers = [f"if n > {d}:" for d in range(100)]
    path = tmp_path / "deep.py"
    path.write_text(program(nested(headers, ["o = self.k(a, n, o)"])))
    result = run_cli("run", str(path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: error: Python syntax error: too many levels of indentation",
                    result.stderr)


def test_twenty_thousand_statements_compile(tmp_path):
    lines = ["t = pl.create_tensor([16, 16], dtype=pl.FP32)"]
    lines += ["o = self.k(a, n, o)" if i % 2 else "t = self.k(o, n, t)" for i in range(20000)]
    _, result = compile_text(tmp_path, program(lines))
    assert result.code.count("rt_submit_aiv_task(") == 20000


def test_a_long_elif_chain_is_refused_with_a_hint_saying_why(tmp_path):
    # each elif is an If in the else of the one before: the chain nests one level per branch
    lines = ["if n == 0:", "    o = self.k(a, n, o)"]
    for i in range(1, MAX_NESTING + 1):
        lines += [f"elif n == {i}:", "    o = self.k(a, n, o)"]
    error = user_error(tmp_path, program(lines))
    assert error.message == f"blocks are nested more than {MAX_NESTING} deep"
    assert error.hint.startswith("an elif nests in the else before it")
    assert error.span.line == FIRST_BODY_LINE + 2 * MAX_NESTING
    _, result = compile_text(tmp_path, program(lines[:-2]))  # one branch fewer compiles
    assert f"(n == {MAX_NESTING - 1})" in result.code


@pytest.mark.parametrize("dims", [[2] * 6, []], ids=["six", "none"])
def test_a_shape_from_a_module_level_list_has_a_bounded_rank(tmp_path, dims):
    # issue 11: pl.create_tensor(SHAPE, ...) with a module-level SHAPE skipped the rank check and
    # compiled a rank-6 (or rank-0) tensor, which the runtime's TensorCreateInfo refuses
    text = program(["t = pl.create_tensor(SHAPE, dtype=pl.FP32)", "o = self.k(a, n, o)"])
    text = text.replace("import nanopass.dsl as pl\n", f"import nanopass.dsl as pl\nSHAPE = {dims}\n", 1)
    for static in (False, True):
        error = user_error(tmp_path, text, static)
        assert error.message == f"a tensor has 1 to 5 dimensions, got {len(dims)}"
        assert (error.span.line, error.span.col) == (FIRST_BODY_LINE + 1, 29)
