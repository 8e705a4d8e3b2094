"""The names an outlined block (``pl.at``, ``pl.spmd``, ``pl.cluster``) reads from outside it: each
must be bound where the block reads it, and each outer variable it may read is a parameter of
its kernel. A name nothing binds was dropped (the kernel lost the input a typo meant, and the
task its dependency); a name one branch of an if binds was taken for the block's own where the
other branch reads the outer variable."""

from __future__ import annotations

import textwrap

import pytest

from conftest import load_program

import nanopass
from nanopass.errors import UserError
from nanopass.languages.terms import ParamDir
from nanopass.suggest import one_edit_away

HEADER = '''\
import nanopass.dsl as pl

ROWS = 16


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Inline)
    def twice(self, a: pl.Tensor[[16, 16], pl.FP32], o: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            o = pl.assemble(o, pl.add(a, aa), [0, 0])
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], n: pl.Scalar[pl.INT64],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
'''
AT = "with pl.at(level=pl.Level.CORE_GROUP):\n"
BODY_LINE = 17  # the line of the first statement of main's body (HEADER has 16 lines)


def _path(tmp_path, body: str):
    path = tmp_path / "prog.py"
    path.write_text(HEADER + textwrap.indent(textwrap.dedent(body), " " * 8) + "        return out\n")
    return path


def _error(tmp_path, body: str) -> tuple[str, str | None]:
    with pytest.raises(UserError) as info:
        nanopass.generate_orchestration(load_program(_path(tmp_path, body)))
    span = info.value.span
    return f"{span.line}:{span.col + 1}: {info.value.message}", info.value.hint


def _kernel_params(tmp_path, body: str, kernel: str) -> list[tuple[str, ParamDir]]:
    program = load_program(_path(tmp_path, body)).surface()
    [k] = [k for k in program.kernels if k.name == kernel]
    return [(p.name, p.dir) for p in k.params]


def test_a_typo_in_a_block_is_refused_with_the_name_meant(tmp_path):
    body = AT + "    y = pl.add(x, x)\n" + AT + "    out = pl.assemble(out, pl.add(x, yy), [0, 0])\n"
    # line 4 of the body; column: 12 blanks, "out = pl.assemble(out, pl.add(x, " is 33 characters
    assert _error(tmp_path, body) == (f"{BODY_LINE + 3}:46: name 'yy' is not defined", "did you mean 'y'?")


def test_a_name_the_block_binds_later_is_not_bound_where_it_is_read(tmp_path):
    body = AT + "    out = pl.assemble(out, pl.add(x, t), [0, 0])\n    t = pl.add(x, x)\n"
    message, hint = _error(tmp_path, body)
    assert message == f"{BODY_LINE + 1}:46: name 't' is not defined" and hint is None  # (t: one character)


def test_a_name_closed_by_a_loop_says_why(tmp_path):
    body = ("for i in pl.range(2):\n    w = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
            + AT + "    out = pl.assemble(out, pl.add(x, w), [0, 0])\n")
    message, _hint = _error(tmp_path, body)
    assert message.startswith(f"{BODY_LINE + 3}:46: 'w' is not visible here: it was "), message


def test_a_typo_in_an_inline_functions_block_is_refused_where_it_is_written(tmp_path):
    # line 11 of the file: "            o = pl.assemble(o, pl.add(a, " is 41 characters (no help: the
    # names visible where the copy is read are the caller's)
    message, _hint = _error(tmp_path, "out = self.twice(x, out)\n")
    assert message == "11:42: name 'aa' is not defined"


@pytest.mark.parametrize("block", [
    "with pl.spmd(4):\n",
    "for i in pl.spmd(4):\n",
])
def test_a_typo_in_an_spmd_block_is_refused(tmp_path, block):
    message, _hint = _error(tmp_path, block + "    out = pl.assemble(out, pl.add(x, xs), [0, 0])\n")
    assert message == f"{BODY_LINE + 1}:46: name 'xs' is not defined"


def test_module_names_builtins_and_the_blocks_own_names_are_bound(tmp_path):
    body = AT + ("    t = pl.load(x, [0, 0], [ROWS, 16])\n"
                 "    for j in range(2):\n"
                 "        t = pl.add(t, t)\n"
                 "    out = pl.store(t, [0, 0], out)\n")
    # x read, out written; ROWS (module level), range (a builtin), t and j (the block's) are no parameters
    assert _kernel_params(tmp_path, body, "main_incore_0") == [("x", ParamDir.In), ("out", ParamDir.InOut)]


def test_a_name_one_branch_binds_is_the_outer_tensor_in_the_other(tmp_path):
    body = ("y = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
            + AT + "    y = pl.assemble(y, pl.add(x, x), [0, 0])\n"
            + AT + ("    if n > 0:\n"
                    "        y = pl.add(x, x)\n"
                    "    else:\n"
                    "        out = pl.assemble(out, pl.add(x, y), [0, 0])\n"))
    # the else branch reads the y the first block wrote: the second kernel takes it (so the task
    # waits for the first). Reads in order of first use (n in the test, x in the then branch, y),
    # then the written out
    assert _kernel_params(tmp_path, body, "main_incore_1") == [
        ("n", ParamDir.In), ("x", ParamDir.In), ("y", ParamDir.In), ("out", ParamDir.InOut)]


def test_a_name_both_branches_bind_is_the_blocks_own_after_the_if(tmp_path):
    body = AT + ("    if n > 0:\n"
                 "        t = pl.add(x, x)\n"
                 "    else:\n"
                 "        t = pl.mul(x, x)\n"
                 "    out = pl.assemble(out, t, [0, 0])\n")
    assert _kernel_params(tmp_path, body, "main_incore_0") == [
        ("n", ParamDir.In), ("x", ParamDir.In), ("out", ParamDir.InOut)]


def test_one_edit_away_finds_the_short_names_closest_misses():
    # one insertion, deletion, substitution or swap of neighbours; not for one-character names
    assert one_edit_away("yy", ["y", "x", "out"]) == "did you mean 'y'?"
    assert one_edit_away("tnp", ["tmp", "x"]) == "did you mean 'tmp'?"
    assert one_edit_away("abc", ["abcd", "ab", "xbc", "acb", "abc", "cab", "a"]) == \
        "did you mean 'ab' or 'abcd' or 'acb'?"  # (sorted, three at most: xbc is the fourth)
    assert one_edit_away("x", ["y"]) is None and one_edit_away("zz", ["y", "abc"]) is None


def test_a_write_after_one_branch_rebinds_an_outer_tensor_is_refused(tmp_path):
    # after the if, y is the then branch's new tensor or the first block's: the kernel's InOut
    # parameter would not be one buffer (was: a new result, the write into the outer y lost)
    body = ("y = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
            + AT + "    y = pl.assemble(y, pl.add(x, x), [0, 0])\n"
            + AT + ("    if n > 0:\n"
                    "        y = pl.add(x, x)\n"
                    "    y = pl.assemble(y, pl.add(x, x), [0, 0])\n"
                    "out = pl.assemble(out, y, [0, 0])\n"))
    message, _hint = _error(tmp_path, body)
    # line 7 of the body, column 17: the value after "y = " indented by 8 + 4 (the block)
    assert message.startswith(f"{BODY_LINE + 6}:17: 'pl.assemble(y, pl.add(x, x), [0, 0])' writes a tensor the "
                              "branches of an if in this pl.at block bind to different buffers"), message


@pytest.mark.parametrize("block", [AT, "with pl.spmd(4):\n"])
def test_a_name_a_loop_body_binds_is_the_outer_tensor_after_a_loop_that_runs_no_iteration(tmp_path, block):
    body = ("y = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
            + AT + "    y = pl.assemble(y, pl.add(x, x), [0, 0])\n"
            + block + ("    for i in pl.range(n):\n"
                       "        y = pl.add(x, x)\n"
                       "    out = pl.assemble(out, pl.add(x, y), [0, 0])\n"))
    # with n == 0 the block reads the y the first block wrote: the second kernel takes it, so
    # its task waits for the first (was: y taken for the loop's own, the dependency lost)
    assert _kernel_params(tmp_path, body, "main_incore_1") == [
        ("n", ParamDir.In), ("x", ParamDir.In), ("y", ParamDir.In), ("out", ParamDir.InOut)]
    code = nanopass.generate_orchestration(load_program(_path(tmp_path, body))).code
    assert "params_t1.add_input(y);\n" in code, code


def test_a_write_after_a_loop_that_rebinds_an_outer_tensor_is_refused(tmp_path):
    body = ("y = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
            + AT + "    y = pl.assemble(y, pl.add(x, x), [0, 0])\n"
            + AT + ("    for i in pl.range(n):\n"
                    "        y = pl.add(x, x)\n"
                    "    y = pl.assemble(y, pl.add(x, x), [0, 0])\n"
                    "out = pl.assemble(out, y, [0, 0])\n"))
    message, _hint = _error(tmp_path, body)
    # line 7 of the body, column 17: the value after "y = " indented by 8 + 4 (the block)
    assert message.startswith(f"{BODY_LINE + 6}:17: 'pl.assemble(y, pl.add(x, x), [0, 0])' writes a tensor the "
                              f"loop at line {BODY_LINE + 4} (which may run no iteration) and the code before it in "
                              "this pl.at block bind to different buffers"), message


def test_a_loop_with_a_literal_positive_trip_count_binds_its_names_for_after_it(tmp_path):
    # pl.range(2) runs: after it y is the block's own, not the outer y (no parameter, no refusal)
    body = ("y = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
            + AT + "    y = pl.assemble(y, pl.add(x, x), [0, 0])\n"
            + AT + ("    for i in pl.range(2):\n"
                    "        y = pl.add(x, x)\n"
                    "    out = pl.assemble(out, pl.add(x, y), [0, 0])\n"))
    assert _kernel_params(tmp_path, body, "main_incore_1") == [("x", ParamDir.In), ("out", ParamDir.InOut)]


CLUSTER = """# cluster_group.py's kernels; main's pl.cluster block rebinds t in a loop of n iterations
import nanopass.dsl as pl


@pl.program
class ClusterGroup:
    @pl.function(type=pl.FunctionType.AIC)
    def qk(self, q: pl.Tensor[[16, 64], pl.FP16], k: pl.Tensor[[64, 16], pl.FP16],
           s: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        a: pl.Tile[[16, 64], pl.FP16, pl.MemorySpace.Left] = pl.load(q, [0, 0], [16, 64])
        b: pl.Tile[[64, 16], pl.FP16, pl.MemorySpace.Right] = pl.load(k, [0, 0], [64, 16])
        c: pl.Tile[[16, 16], pl.FP32, pl.MemorySpace.Acc] = pl.matmul(a, b)
        s = pl.store(c, [0, 0], s)
        return s

    @pl.function(type=pl.FunctionType.AIV, attrs={"split": pl.SplitMode.UP_DOWN})
    def softmax(self, s: pl.Tensor[[16, 16], pl.FP32],
                p: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(s, [0, 0], [16, 16])
        p = pl.store(pl.exp(t), [0, 0], p)
        return p

    @pl.function
    def main(self, q: pl.Tensor[[16, 64], pl.FP16], k: pl.Tensor[[64, 16], pl.FP16], n: pl.Scalar[pl.INT32],
             s: pl.Out[pl.Tensor[[16, 16], pl.FP32]], s2: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
             p: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = self.qk(q, k, s)
        with pl.cluster(name_hint="attention"):
            for i in pl.range(n):
                t = self.qk(q, k, s2)
            p = self.softmax(t, p)
        return p
"""


def test_a_cluster_block_reads_the_outer_value_a_zero_trip_loop_leaves(tmp_path):
    # with n == 0, t after the loop is the outer t (qk's result in s): the Group task takes s as an
    # input, so it waits for task 0 (was: t taken for the loop's own, the read of s lost)
    path = tmp_path / "cluster.py"
    path.write_text(CLUSTER)
    code = nanopass.generate_orchestration(load_program(path)).code
    assert "params_t1.add_input(ext_s);" in code, code


def test_a_name_a_block_binds_leaves_it_for_the_next_iterations_read_above_it(tmp_path):
    """A block in a host loop binds ``t``; the loop's next iteration reads ``t`` above the block
    (no read after it in the text): the block's ``t`` leaves the kernel and the loop carries it.
    Before, nothing after the block read ``t``, so the kernel dropped it and iterations 1 and 2
    read the create of before the loop (a wrong value: `nanopass check`'s reference reads the
    front end's tree, so it agreed)."""
    body = ("t = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
            "for i in pl.range(3):\n"
            + textwrap.indent(AT + "    out = pl.assemble(out, pl.add(t, t), [0, 0])\n"
                              + AT + "    t = pl.add(x, x)\n", "    "))
    program = load_program(_path(tmp_path, body))
    [k] = [k for k in program.surface().kernels if k.name == "main_incore_1"]
    assert [p.name for p in k.params] == ["x"] and len(k.results) == 1
    code = nanopass.generate_orchestration(program).code
    first = code.index("params_t0.add_input(")
    carried = code[first:].split("(", 1)[1].split(")", 1)[0]  # the tensor task 0 reads
    assert f"{carried} = ret0__out;" in code  # the loop carries the block's t to the next iteration


def test_a_block_rebinding_its_name_before_the_next_iterations_read_keeps_it(tmp_path):
    """The same loop with the read below the rebinding block: within the iteration; and with the
    name bound again at the top of the body before any read, nothing leaves the second block."""
    body = ("t = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
            "for i in pl.range(3):\n"
            + textwrap.indent("t = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
                              + AT + "    out = pl.assemble(out, pl.add(t, t), [0, 0])\n"
                              + AT + "    t = pl.add(x, x)\n", "    "))
    [k] = [k for k in load_program(_path(tmp_path, body)).surface().kernels if k.name == "main_incore_1"]
    assert len(k.results) == 0


def test_a_block_that_rebinds_a_name_it_reads_returns_a_new_tensor(tmp_path):
    """``t = pl.add(t, x)`` in a block: the kernel reads the outer ``t`` (an In parameter) and its
    result is a new tensor, which the caller gives a buffer (``ret0__out``); the read after the
    block reads that buffer. Before, the kernel's return named the In parameter ``t``: the task had
    no output and every later read saw the old ``t`` (found by the attack's blocks grammar, 63)."""
    body = ("t = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
            + AT + "    t = pl.add(t, x)\n"
            + AT + "    out = pl.assemble(out, pl.mul(t, t), [0, 0])\n")
    program = load_program(_path(tmp_path, body))
    [k] = [k for k in program.surface().kernels if k.name == "main_incore_0"]
    assert [(p.name, p.dir) for p in k.params] == [("t", ParamDir.In), ("x", ParamDir.In)] and len(k.results) == 1
    code = nanopass.generate_orchestration(program).code
    task0, task1 = code.split("// Task 1")
    assert "params_t0.add_output(ret0__out);" in task0
    assert "params_t1.add_input(ret0__out);" in task1 and "add_input(t)" not in task1


def test_a_loop_of_a_block_that_rebinds_a_name_it_reads_carries_the_new_tensor(tmp_path):
    """The same block in a host loop: each iteration reads the tensor the one before made."""
    body = ("t = pl.create_tensor([16, 16], dtype=pl.FP32)\n"
            "for i in pl.range(3):\n"
            + textwrap.indent(AT + "    t = pl.add(t, x)\n", "    ")
            + AT + "    out = pl.assemble(out, pl.mul(t, t), [0, 0])\n")
    code = nanopass.generate_orchestration(load_program(_path(tmp_path, body))).code
    assert "(ret0__out);" in code.split("// Task 0")[1].split("rt_submit")[0]  # the block's output
    first = code.index("params_t0.add_input(")
    carried = code[first:].split("(", 1)[1].split(")", 1)[0]  # the tensor task 0 reads
    assert f"{carried} = ret0__out" in code  # the loop carries the block's new t
