"""A tensor allocated in a loop inside a ``with`` block and read after the block
(docs/semantics.md "Still open" 10; ``place_loop_allocations_before_scopes``): the block's scope
frees what is allocated in it, so the buffer is made before the block and shared by every
iteration, whose accesses to it are then ordered (a MANUAL scope orders none of them); a loop
whose iterations' buffers live at once gets row blocks of one buffer (a block for each run of a
nest of constant bounds, or of a loop or rectangular nest of bounds read before the block, its
number counted there; also for a create with an initial value the block writes; one buffer for one nothing
writes), or, where no count of blocks is known before the block or the shape is computed in it,
a located error (never a warning, and never a buffer left in the block to be used after it)."""

from __future__ import annotations

import re

import pytest

from conftest import compile_check, run_cli

from nanopass.tools.properties import Findings, check_text

HEAD = '''import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def rd(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def upd(self, a: pl.Tensor[[8, 8], pl.FP32], acc: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], acc)
        return o

    @pl.function(type=pl.FunctionType.Orchestration, auto_scope={auto})
    def orch(
        self,
        x: pl.Tensor[[8, 8], pl.FP32],
        y: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        w = x
{body}
        y = self.upd(w, y)
        return y
'''

# (name, scope, loop body): each loop's last buffer is read after the block
SHARED = {
    "runtime_output_in_manual": ("pl.manual_scope()", ["w, p = pl.submit(self.rd, x, deps=[])"]),
    "create_in_manual": ("pl.manual_scope()", ["t = pl.create_tensor([8, 8], dtype=pl.FP32)",
                                               "w, p = pl.submit(self.upd, x, t, deps=[])"]),
    "runtime_output_in_auto": ("pl.scope()", ["w, p = pl.submit(self.rd, x)"]),
    "create_in_auto": ("pl.scope()", ["t = pl.create_tensor([8, 8], dtype=pl.FP32)", "w = self.upd(x, t)"]),
    # (a pl.parallel loop of one iteration: nothing runs at once)
    "one_parallel_iteration_in_manual": ("pl.manual_scope()", ["for j in pl.parallel(1):",
                                                               "    w, p = pl.submit(self.rd, x, deps=[])"]),
    "nested_loops_in_manual": ("pl.manual_scope()", ["for j in pl.range(n):",
                                                     "    w, p = pl.submit(self.rd, x, deps=[])"]),
    # placed before the inner block first, then before the outer one (the outer loop's carry
    # is passed into the inner loop before the allocation there)
    "manual_block_in_a_loop_of_an_auto_block": ("pl.scope()", [
        "with pl.manual_scope():", "    for j in pl.range(n):", "        w, p = pl.submit(self.rd, x, deps=[])"]),
    # an iteration's read of its buffer, then the next iteration's write of it (WAR)
    "written_then_read_in_manual": ("pl.manual_scope()", [
        "w = pl.create_tensor([8, 8], dtype=pl.FP32)", "w, p = pl.submit(self.upd, x, w, deps=[])",
        "u, q = pl.submit(self.rd, w, deps=[p])"]),
    # an allocation in a branch: the carry the other branch yields may be an earlier run's buffer,
    # but that branch allocates none (tools/attack/found/36; warned before)
    "create_in_an_if_of_the_loop_in_manual": ("pl.manual_scope()", [
        "if n > 1:", "    w = pl.create_tensor([8, 8], dtype=pl.FP32)", "    w, p = pl.submit(self.upd, x, w, deps=[])"]),
    "runtime_output_in_an_if_of_the_loop_in_auto": ("pl.scope()", ["if i > 0:", "    w, p = pl.submit(self.rd, x)"]),
    # a create with an initial value that nothing writes: every run's buffer holds the value,
    # whichever it is, so one buffer made (and filled) before the block serves every run
    # (tools/attack/found/33; warned before)
    "unwritten_create_with_an_initial_value_in_manual": ("pl.manual_scope()", [
        "w = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=0.5)", "u, p = pl.submit(self.rd, w, deps=[])"]),
    "unwritten_create_with_an_initial_value_in_auto": ("pl.scope()", [
        "w = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=0.5)", "u, p = pl.submit(self.rd, w)"]),
    # ... also when an iteration still reads the earlier run's buffer after it makes its own
    "unwritten_create_with_an_initial_value_read_by_the_next_iteration_in_manual": ("pl.manual_scope()", [
        "v = w", "w = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=0.5)",
        "u, p = pl.submit(self.rd, v, deps=[])"]),
    # a pl.while_ loop in the loop: its carries hold the buffers its body allocates (they were not
    # followed through a while loop: the buffer was left in the block and used after it, unwarned)
    "runtime_output_in_a_while_loop_in_auto": ("pl.scope()", [
        "for (k,) in pl.while_(init_values=(0,)):", "    pl.cond(k < n)", "    w, p = pl.submit(self.rd, x)",
        "    (k2,) = pl.yield_(k + 1)"]),
    "create_in_a_while_loop_in_auto": ("pl.scope()", [
        "for (k,) in pl.while_(init_values=(0,)):", "    pl.cond(k < n)",
        "    w = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=0.5)", "    u = self.rd(w, y)",
        "    (k2,) = pl.yield_(k + 1)"]),
    # a shape computed inside the block from names bound before it: computed again before it
    "shape_computed_in_the_block": ("pl.manual_scope()", [
        "t = pl.create_tensor([k, 8], dtype=pl.FP32)", "w, p = pl.submit(self.upd, x, t, deps=[])"], "range(n)",
        "            j = n + 4\n            k = j * 2 - n - n"),
}


def program(scope: str, lines: list[str], loop: str = "range(n)", before: str = "") -> str:
    """The loop ``loop`` of ``lines`` in the block ``scope``, after the line ``before`` (in the
    block when indented as its body, before it when indented as the block)."""
    head = f"{before}\n" if before.startswith("            ") else ""
    body = (f"{before}\n" if before and not head else "") + f"        with {scope}:\n{head}            for i in pl.{loop}:\n"
    body += "".join(f"                {line}\n" for line in lines)
    return HEAD.replace("{auto}", "True" if "manual" in scope else "False").replace("{body}", body.rstrip("\n"))


def placed_before_the_block(path, text: str, tmp_path, outer: bool = False) -> tuple[str, int]:
    """The C++ of ``text`` (written to ``path``), compiled without a warning and accepted by g++,
    and where in it the `with` block starts (its ``PTO2_SCOPE``: ``outer``, the first, a block
    around the loops; else the one around the outermost loop), every buffer made before the block
    (and filled there, once, for a create with an initial value)."""
    path.write_text(text)
    result = run_cli("run", str(path))
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    code = result.stdout
    block = code.index("PTO2_SCOPE(") if outer else code.rindex("PTO2_SCOPE(", 0, code.index("for (int64_t i"))
    assert code.index("alloc_tensors(") < block and "alloc_tensors(" not in code[block:]
    if "init_value=" in text:
        assert ".set_initial_value(" in code[:block] and ".set_initial_value(" not in code[block:]
    compile_check(code, tmp_path)
    return code, block


def assert_blocks_of_both_counts(code: str, block: int) -> None:
    """One buffer of ``outer * inner`` row blocks (each a ``blocks`` let), the inner block's count
    placed again before the outer block."""
    shape = re.search(r"_ci_shapes\[2\] = \{static_cast<uint32_t>\((blocks__out_v\d+) \* \((blocks__out_v\d+) \* 8\)\), 8\};",
                      code[:block])
    assert shape is not None and shape.group(1) != shape.group(2), code[:block]


def assert_counted_before_the_block(code: str, block: int) -> None:
    """One buffer of ``blocks`` row blocks, ``blocks`` a let computed before the block."""
    count = re.search(r"_ci_shapes\[2\] = \{static_cast<uint32_t>\((blocks__out_v\d+) \* 8\), 8\};", code[:block])
    assert count is not None, code[:block]
    assert f"int64_t {count.group(1)} = " in code[:count.start()]


@pytest.mark.parametrize("name", sorted(SHARED))
def test_a_loop_allocation_read_after_the_block_uses_one_buffer_made_before_it(name, tmp_path):
    placed_before_the_block(tmp_path / f"{name}.py", program(*SHARED[name]), tmp_path)
    check_runs(tmp_path / f"{name}.py")


# (name, scope, loop body, loop, blocks): the runs' buffers live at once (a task reading the
# earlier buffer while it writes its own, a carry keeping it) or may (pl.parallel iterations):
# one buffer of that many row blocks made before the block, each run taking its own block
BLOCKS = {
    # each iteration reads the buffer of the one before while it makes its own: two blocks, i % 2
    "task_reads_the_previous_buffer": ("pl.manual_scope()", ["w, p = pl.submit(self.rd, w, deps=[])"], "range(n)", 2),
    "task_reads_the_previous_buffer_in_auto": ("pl.scope()", ["w, p = pl.submit(self.rd, w)"], "range(1, n)", 2),
    # the previous iteration's buffer is kept alive beside the new one by a second carry
    "two_generations_carried": ("pl.scope()", ["v = w", "w, p = pl.submit(self.rd, x)", "y = self.upd(v, y)"],
                                "range(n)", 2),
    "two_generations_carried_in_manual": ("pl.manual_scope()", [
        "v = w", "w, p = pl.submit(self.rd, x, deps=[])", "y, q = pl.submit(self.upd, v, y, deps=[p])"], "range(n)", 2),
    # three generations: the one two iterations back is still read
    "three_generations_carried": ("pl.manual_scope()", [
        "u = v", "v = w", "t = pl.create_tensor([8, 8], dtype=pl.FP32)", "w, p = pl.submit(self.upd, u, t, deps=[])",
        "y, q = pl.submit(self.upd, v, y, deps=[p])"], "range(n)", 3, "        v = x"),
    # the iterations of a pl.parallel loop of constant bounds may run at once: one block each
    "parallel_iterations": ("pl.manual_scope()", ["w, p = pl.submit(self.rd, x, deps=[])"], "parallel(3)", 3),
    "parallel_iterations_read_in_the_iteration": ("pl.manual_scope()", [
        "w, p = pl.submit(self.rd, x, deps=[])", "y, q = pl.submit(self.upd, w, y, deps=[p])"], "parallel(2, 8, 2)", 3),
    "parallel_iterations_in_auto": ("pl.scope()", ["t = pl.create_tensor([8, 8], dtype=pl.FP32)", "w = self.upd(x, t)"],
                                    "parallel(4)", 4),
}


def check_runs(path) -> None:
    """Checked for hazards and values for no iteration, one, and iterations after the first, with
    no freed buffer used (the runtime model's warning, which `nanopass check` reports)."""
    assert check_text(path.read_text(), [{"n": str(n)} for n in range(4)], Findings(), extra=runtime_warnings) == []


def runtime_warnings(result, values) -> str | None:
    return "\n".join(line for line in result.lines() if line.startswith("warning: ")) or None


@pytest.mark.parametrize("name", sorted(BLOCKS))
def test_a_loop_whose_runs_buffers_live_at_once_gets_a_block_each_in_one_buffer_before_the_block(name, tmp_path):
    scope, lines, loop, count, *before = BLOCKS[name]
    path = tmp_path / f"{name}.py"
    code, block = placed_before_the_block(path, program(scope, lines, loop, *before), tmp_path)
    assert f"_ci_shapes[2] = {{{8 * count}, 8}};" in code[:block]  # one buffer of `count` row blocks
    index = "i" if loop.startswith("range(n)") or loop == f"parallel({count})" else "(i - "
    assert f"_offsets[2] = {{static_cast<uint32_t>({index}" in code[block:]
    check_runs(path)


# (name, scope, loop body, the allocation's text (its first is the error's line and column), loop, what the message says ({i},
# {j}, {k}: the line of the loop of that variable), [line before]): an allocation used after the
# block whose runs need buffers of their own that the compiler cannot count before the block, or
# whose shape is computed in the block: a located error naming the loop and why (each was left in
# the block with a warning that the use after it may use a freed buffer, and was)
REFUSED_ALLOCATIONS = {
    # a pl.parallel loop whose trip count reads an outer loop's variable (a triangular nest)
    "parallel_loop_of_a_count_read_from_the_outer_variable": ("pl.manual_scope()", [
        "for j in pl.parallel(i):", "    w, p = pl.submit(self.rd, x, deps=[])"], "pl.submit", "range(n)",
        "the bounds of the loop at line {j} read 'i', the variable of an outer loop: the nest is not rectangular"),
    # an earlier run's buffer read in a nest whose inner bounds read the outer variable
    "triangular_nest_reads_the_previous_buffer": ("pl.manual_scope()", [
        "for j in pl.range(i, n):", "    w, p = pl.submit(self.rd, w, deps=[])"], "pl.submit", "range(n)",
        "the bounds of the loop at line {j} read 'i', the variable of an outer loop"),
    "triangular_nest_of_a_create_read_by_the_next_run_in_auto": ("pl.scope()", [
        "for j in pl.range(i):", "    v = w", "    w = pl.create_tensor([8, 8], dtype=pl.FP32)",
        "    w = self.upd(v, w)"], "w = pl.create", "range(n)",
        "the bounds of the loop at line {j} read 'i', the variable of an outer loop"),
    # a pl.while_ loop whose runs read the buffer of the run before
    "while_loop_reads_the_previous_buffer": ("pl.scope()", [
        "for (k,) in pl.while_(init_values=(0,)):", "    pl.cond(k < n)", "    w, p = pl.submit(self.rd, w)",
        "    (k2,) = pl.yield_(k + 1)"], "pl.submit", "range(2)",
        "the loop at line {k} is a pl.while_, whose trip count is known only when it ends"),
    # a loop of bounds computed in the block by a division (it cannot run before the block)
    "parallel_loop_of_bounds_computed_by_a_division": ("pl.scope()", [
        "w, p = pl.submit(self.rd, x)", "y = self.upd(w, y)"], "pl.submit", "parallel(k)",
        "the bounds of the loop at line {i} read 'k', computed in the block otherwise than from names bound "
        "before it by arithmetic that cannot fail", "            k = 64 // n"),
    "parallel_loop_of_a_step_known_at_run_time": ("pl.manual_scope()", [
        "w, p = pl.submit(self.rd, x, deps=[])"], "pl.submit", "parallel(0, 8, n)",
        "the loop at line {i} has a step that is not a positive constant"),
    # a shape computed inside the block by a division (it cannot run before the block)
    "shape_computed_in_the_block_by_a_division": ("pl.scope()", [
        "t = pl.create_tensor([k, 8], dtype=pl.FP32)", "w = self.upd(x, t)"], "t = ", "range(n)",
        "its shape reads 'k', computed in the block otherwise than from names bound before it by arithmetic "
        "that cannot fail", "            k = 64 // n"),
}


@pytest.mark.parametrize("name", sorted(REFUSED_ALLOCATIONS))
def test_an_allocation_no_buffers_before_the_block_serve_is_a_located_error(name, tmp_path):
    scope, lines, where, loop, why, *before = REFUSED_ALLOCATIONS[name]
    text = program(scope, lines, loop, *before)
    message = refused_at(tmp_path / f"{name}.py", text, where)
    assert "inside a `with` block and used after the block" in message, message
    assert why.format(**loop_lines(text)) in message, message
    assert re.search(r"help: .*before the `with` block", message), message


def refused_at(path, text: str, where: str) -> str:
    """The error of the compile of ``text`` (written to ``path``), located at the first ``where``
    of it (line and column), with no traceback and no warning: its words, one space apart."""
    path.write_text(text)
    result = run_cli("run", str(path))
    assert result.returncode != 0 and "Traceback" not in result.stderr, result.stdout + result.stderr
    assert "warning" not in result.stderr, result.stderr
    line, row = next((i, row) for i, row in enumerate(text.splitlines(), 1) if where in row)
    assert f"{path}:{line}:{row.index(where) + 1}: error:" in result.stderr, result.stderr
    return " ".join(result.stderr.split())


def loop_lines(text: str) -> dict[str, int]:
    """The line of the loop of each variable ``i``, ``j``, ``k`` of ``text`` (0: none)."""
    rows = text.splitlines()
    return {var: next((i for i, row in enumerate(rows, 1) if re.match(rf"\s*for \(?{var}\b", row)), 0)
            for var in "ijk"}


# (name, scope, loop body, loop, the offset of the run's block, [line before]): the one loop of the
# block around an allocation whose runs need a buffer each (a create with an initial value the block
# writes: every run starts from the value, and the runtime fills a buffer only when it allocates it,
# tools/attack/found/33's written form; the iterations of a pl.parallel loop, which may run at
# once; a carry that may keep the first buffer for ever), with bounds read before the block and a
# trip count known only at run time: one buffer of max(runs, 1) row blocks made (and filled) before
# the block, its number counted there, run j taking block j
RUN_TIME = {
    "create_with_an_initial_value_written_by_a_task": (
        "pl.scope()", ["t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)", "w = self.upd(x, t)"],
        "range(n)", "i * 8"),
    "create_with_an_initial_value_written_by_a_task_in_manual": (
        "pl.manual_scope()", ["t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)",
                              "w, p = pl.submit(self.upd, x, t, deps=[])"], "range(n)", "i * 8"),
    "create_with_an_initial_value_written_by_the_host_in_manual": (
        "pl.manual_scope()", ["w = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)",
                              "pl.tensor.write(w, [1, 1], 2.0)"], "range(n)", "i * 8"),
    "create_with_an_initial_value_written_by_the_host_in_auto": (
        "pl.scope()", ["w = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)",
                       "pl.tensor.write(w, [i, 1], 2.0)"], "range(n)", "i * 8"),
    # (an earlier run's buffer written through a carry: a shared buffer would not start from the value)
    "create_with_an_initial_value_whose_earlier_buffer_is_written_in_auto": (
        "pl.scope()", ["y = self.upd(x, w)", "w = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)"],
        "range(n)", "i * 8", "        w = pl.create_tensor([8, 8], dtype=pl.FP32)"),  # (w = x would write the input x)
    # (a start of 0 or a step of 1 is not written in the run index)
    "create_with_an_initial_value_in_a_loop_of_a_start": (
        "pl.scope()", ["t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)", "w = self.upd(x, t)"],
        "range(1, n)", "(i - 1) * 8"),
    "create_with_an_initial_value_in_a_loop_of_a_step": (
        "pl.scope()", ["t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)", "w = self.upd(x, t)"],
        "range(0, n, 2)", "i / 2 * 8"),
    "create_with_an_initial_value_in_a_loop_of_a_start_and_a_step": (
        "pl.manual_scope()", ["t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)",
                              "w, p = pl.submit(self.upd, x, t, deps=[])"], "range(1, n, 2)", "(i - 1) / 2 * 8"),
    # (bounds computed in the block from names bound before it: computed again before it; k < 0 for n = 0)
    "create_with_an_initial_value_in_a_loop_of_bounds_computed_in_the_block": (
        "pl.scope()", ["t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)", "w = self.upd(x, t)"],
        "range(k)", "i * 8", "            k = n * 2 - 1"),
    "create_with_an_initial_value_in_a_parallel_loop": (
        "pl.scope()", ["t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)", "w = self.upd(x, t)"],
        "parallel(n)", "i * 8"),
    # the iterations of a pl.parallel loop, whose buffers live at once
    "runtime_output_in_a_parallel_loop_in_manual": (
        "pl.manual_scope()", ["w, p = pl.submit(self.rd, x, deps=[])"], "parallel(n)", "i * 8"),
    "runtime_output_read_in_the_iteration_of_a_parallel_loop_in_auto": (
        "pl.scope()", ["w, p = pl.submit(self.rd, x)", "y = self.upd(w, y)"], "parallel(n)", "i * 8"),
    "create_in_a_parallel_loop_in_auto": (
        "pl.scope()", ["t = pl.create_tensor([8, 8], dtype=pl.FP32)", "w = self.upd(x, t)"], "parallel(n)", "i * 8"),
    "create_in_a_parallel_loop_in_manual": (
        "pl.manual_scope()", ["t = pl.create_tensor([8, 8], dtype=pl.FP32)",
                              "w, p = pl.submit(self.upd, x, t, deps=[])"], "parallel(n)", "i * 8"),
    # ... reading the buffer of the iteration before (a carry: the iterations run in order)
    "runtime_output_read_by_the_next_iteration_of_a_parallel_loop_in_manual": (
        "pl.manual_scope()", ["w, p = pl.submit(self.rd, w, deps=[])"], "parallel(n)", "i * 8"),
    # a carry that may keep the first buffer for ever: no rotation of blocks serves, a block per run does
    "a_buffer_kept_for_ever": ("pl.scope()", ["w, p = pl.submit(self.rd, x)", "if i == 0:", "    v = w",
                                              "y = self.upd(v, y)"], "range(n)", "i * 8", "        v = x"),
}


@pytest.mark.parametrize("name", sorted(RUN_TIME))
def test_one_loop_of_a_run_time_trip_count_gets_a_block_for_each_run_counted_before_the_block(name, tmp_path):
    scope, lines, loop, offset, *before = RUN_TIME[name]
    path = tmp_path / f"{name}.py"
    code, block = placed_before_the_block(path, program(scope, lines, loop, *before), tmp_path)
    assert_counted_before_the_block(code, block)  # max(runs, 1) row blocks
    assert f"_offsets[2] = {{static_cast<uint32_t>({offset}), 0}};" in code[block:]
    check_runs(path)  # (n = 0: no run, the name after the block holds what it held before)


# (name, scope, loop body, loop, what the message says, [line before]): a create with an initial
# value that the block writes whose runs the compiler cannot count before the block: a located
# error that says which loop ({i}, {j}: the line of the loop of that variable) and why
REFUSED = {
    # (an inner loop's bounds read an outer loop's variable: the nest's runs are no product of counts)
    "create_with_an_initial_value_in_a_triangular_nest": (
        "pl.scope()", ["for j in pl.range(i):", "    t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)",
                       "    w = self.upd(x, t)"], "range(n)", "the bounds of the loop at line {j} read 'i', the "
        "variable of an outer loop: the nest is not rectangular"),
    "create_with_an_initial_value_in_a_triangular_nest_in_manual": (
        "pl.manual_scope()", ["for j in pl.range(i, n):",
                              "    t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)",
                              "    w, p = pl.submit(self.upd, x, t, deps=[])"], "range(n)",
        "the bounds of the loop at line {j} read 'i', the variable of an outer loop"),
    # (a division by a name may fail: it cannot run before the block)
    "create_with_an_initial_value_in_a_loop_of_bounds_computed_by_a_division_in_the_block": (
        "pl.scope()", ["t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)", "w = self.upd(x, t)"],
        "range(k)", "the bounds of the loop at line {i} read 'k', computed in the block otherwise than from names "
        "bound before it by arithmetic that cannot fail", "            k = 64 // n"),
    "create_with_an_initial_value_in_a_loop_of_a_step_known_at_run_time": (
        "pl.scope()", ["t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)", "w = self.upd(x, t)"],
        "range(0, 8, n)", "the loop at line {i} has a step that is not a positive constant"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_written_create_with_an_initial_value_whose_runs_are_not_counted_before_the_block_is_a_located_error(
        name, tmp_path):
    scope, lines, loop, why, *before = REFUSED[name]
    text = program(scope, lines, loop, *before)
    message = refused_at(tmp_path / f"{name}.py", text, "t = pl.create_tensor(")
    assert "created with an initial value in a loop inside a `with` block" in message
    assert f"the compiler cannot count its runs before the block ({why.format(**loop_lines(text))}" in message, message
    assert "fills a buffer only when it allocates it" in message
    assert "compute the loops' bounds before the `with` block (not from an outer loop's variable)" in message


# (name, scope, loop body, loop, blocks, the offset of the run's block, [line before]): shapes
# the rules for one loop leave (they were warned about): a nest whose inner loops have constant
# trip counts, the runs of an outer iteration each taking a block of the ones that iteration
# rotates to; loops of constant bounds, every run a block of its own (a create with an initial
# value, filled once when the buffer is made before the block, and an allocation in an `if`)
NESTS = {
    # every iteration starts from the initial value, as written: block i keeps it until iteration i
    "create_with_an_initial_value_in_a_loop_of_constant_bounds": (
        "pl.scope()", ["t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)", "w = self.upd(x, t)"],
        "range(4)", 4, "i * 8"),
    "create_with_an_initial_value_in_an_if_of_a_loop_in_manual": (
        "pl.manual_scope()", ["if i < n:", "    t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)",
                              "    w, p = pl.submit(self.upd, x, t, deps=[])"], "range(1, 7, 2)", 3, "(i - 1) / 2 * 8"),
    "create_with_an_initial_value_in_nested_loops_of_constant_bounds": (
        "pl.scope()", ["for j in pl.range(3):", "    t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)",
                       "    w = self.upd(w, t)"], "range(2)", 6, "(i * 3 + j) * 8"),
    # the earlier run is the inner loop's previous iteration or, for its first, the outer one's last
    "nested_loop_of_constant_trip_count_reads_the_previous_buffer": (
        "pl.manual_scope()", ["for j in pl.range(3):", "    w, p = pl.submit(self.rd, w, deps=[])"],
        "range(n)", 6, "(i % 2 * 3 + j) * 8"),
    "nested_loop_of_constant_trip_count_reads_the_previous_buffer_in_auto": (
        "pl.scope()", ["for j in pl.range(1, 5, 2):", "    w, p = pl.submit(self.rd, w)"],
        "range(n)", 4, "(i % 2 * 2 + (j - 1) / 2) * 8"),
    # a carry of the outer loop keeps the previous outer iteration's last buffer past the inner runs
    "nest_whose_outer_carry_keeps_the_previous_outer_iterations_buffer": (
        "pl.manual_scope()", ["u = v", "v = w", "for j in pl.range(2):", "    w, p = pl.submit(self.rd, x, deps=[])",
                              "y, q = pl.submit(self.upd, u, y, deps=[])"], "range(n)", 6, "(i % 3 * 2 + j) * 8",
        "        v = x"),
    "two_nested_loops_of_constant_trip_counts": (
        "pl.manual_scope()", ["for j in pl.range(2):", "    for k in pl.range(2):",
                              "        w, p = pl.submit(self.rd, w, deps=[])"], "range(n)", 8, "(i % 2 * 4 + (j * 2 + k)) * 8"),
    # (a block of its own for every run: in a manual scope the user's deps= would order the reads)
    "nested_loops_of_constant_bounds_read_the_previous_buffer": (
        "pl.scope()", ["for j in pl.range(2):", "    w, p = pl.submit(self.rd, w)"], "range(2)", 4, "(i * 2 + j) * 8"),
    # the iterations of a pl.parallel loop in a pl.range loop: a block each, shared by the outer iterations
    "parallel_loop_nested_in_a_loop": (
        "pl.manual_scope()", ["for j in pl.parallel(3):", "    w, p = pl.submit(self.rd, x, deps=[])"],
        "range(n)", 3, "j * 8"),
    # an allocation in each branch of an if, the one reading the buffer of the iteration before:
    # each rotates over two blocks by the loop's run index
    "allocations_in_the_branches_of_an_if_read_the_previous_buffer": (
        "pl.scope()", ["if i < 2:", "    w, p = pl.submit(self.rd, x)", "else:", "    w, p = pl.submit(self.rd, w)"],
        "range(n)", 2, "i % 2 * 8"),
    # an allocation that may not run keeps the last buffer made for any number of iterations
    "allocation_in_an_if_of_a_loop_of_constant_bounds": (
        "pl.scope()", ["if i < n:", "    w, p = pl.submit(self.rd, w)"], "range(4)", 4, "i * 8"),
    "a_buffer_kept_for_ever_in_a_loop_of_constant_bounds": (
        "pl.scope()", ["w, p = pl.submit(self.rd, x)", "if i == 0:", "    v = w", "y = self.upd(v, y)"],
        "range(3)", 3, "i * 8", "        v = x"),
}


@pytest.mark.parametrize("name", sorted(NESTS))
def test_a_nest_or_loops_of_constant_bounds_get_a_block_for_each_run_in_one_buffer_before_the_block(name, tmp_path):
    scope, lines, loop, count, offset, *before = NESTS[name]
    path = tmp_path / f"{name}.py"
    code, block = placed_before_the_block(path, program(scope, lines, loop, *before), tmp_path)
    assert f"_ci_shapes[2] = {{{8 * count}, 8}};" in code[:block]  # one buffer of `count` row blocks
    assert f"_offsets[2] = {{static_cast<uint32_t>({offset}), 0}};" in code[block:]
    check_runs(path)


# (blocks, atoms): the adversarial tester's scopes grammar (tools/attack/scopes.py) on
# creates with an initial value in a loop or nest of a run-time trip count of a block: compiled and
# correct (one shared buffer where no run's write reaches its fill: nothing writes it, or only code
# after the block; else a block for each run)
ATTACK_INIT = {
    "unwritten": ((("manual", ("range_n", "atom")), "atom"), [("newi", "w"), ("hr", "w")]),
    "unwritten_in_a_nest": ((("manual", ("range_n", ("range_n", "atom"))), "atom"), [("newi", "w"), ("hr", "w")]),
    "written_after_the_block": ((("manual", ("range_n", "atom")), "atom", "atom"),
                                [("newi", "w"), ("up", "w"), ("hr", "w")]),
    # a block for each run, their number counted before the block
    "written_in_the_loop": ((("manual", ("range_n", "atom", "atom")), "atom"),
                            [("newi", "w"), ("up", "w"), ("hr", "w")]),
    "earlier_buffer_written_through_a_swap": ((("scope", ("swap_n", "atom", "atom")), "atom"),
                                              [("newi", "w"), ("up", "v"), ("hr", "w")]),
    "written_by_the_host_in_an_if": ((("manual", ("range_n", ("if_n", "atom"), "atom")), "atom"),
                                     [("newi", "w"), ("hw", "w"), ("hr", "w")]),
    # a nest with a run-time trip count: a block for each run, their number the product of the
    # loops' counts (refused before)
    "written_in_a_nest": ((("manual", ("range_n", ("range_n", "atom", "atom"))), "atom"),
                          [("newi", "w"), ("up", "w"), ("hr", "w")]),
    "written_in_a_nest_with_a_parallel_loop": ((("scope", ("parallel_2", ("range_n", "atom", "atom"))), "atom"),
                                               [("newi", "w"), ("up", "w"), ("hr", "w")]),
    "written_by_the_host_in_a_nest_of_three": (
        (("manual", ("range_n", ("range_2", ("range_n", "atom", "atom")))), "atom"),
        [("newi", "w"), ("hw", "w"), ("hr", "w")]),
    # a block in a loop of another block, each around a nest: placed before the inner block, then
    # before the outer one (the inner count's lets copied there)
    "written_in_a_nest_in_a_block_in_a_nest": (
        (("scope", ("range_n", ("range_2", ("manual", ("range_n", ("range_n", "atom", "atom")))))), "atom"),
        [("newi", "w"), ("up", "w"), ("hr", "w")]),
}


@pytest.mark.parametrize("name", sorted(ATTACK_INIT))
def test_the_adversarial_tester_passes_creates_with_an_initial_value_in_a_loop_of_unknown_count(name):
    from nanopass.tools.attack import found, runner
    from nanopass.tools.attack.program import render

    def block(item):
        return item if item == "atom" else (item[0], tuple(block(i) for i in item[1:]))

    shape, atoms = ATTACK_INIT[name]
    prog = found._scopes(tuple(block(item) for item in shape), atoms)
    source = render(prog).source  # (every atom has its place in the blocks)
    assert source.count("init_value=0.5") == 1
    assert source.count("pl.tensor.read(") == sum(op == "hr" for op, _ in atoms)
    assert source.count("pl.tensor.write(") - source.count("pl.tensor.write(sink") == sum(op == "hw" for op, _ in atoms)
    rep = runner.check(prog)
    assert rep.invalid is None and rep.refusal is None and not rep.unorderable, runner.describe(rep)
    assert rep.classes() == set(), runner.describe(rep)


NESTED_BLOCKS = '''        with pl.scope():
            for k in pl.range(n):
                with pl.manual_scope():
                    for i in pl.range({bounds}):
                        t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)
                        w, p = pl.submit(self.upd, x, t, deps=[])'''


def test_a_block_in_a_loop_of_another_block_gets_the_blocks_of_both_counts_before_the_outer_block(tmp_path):
    """The buffer of max(n, 1) filled blocks placed before the inner block is placed again before
    the outer one, as max(n, 1) blocks of it: its count lets are copied there."""
    path = tmp_path / "nested.py"
    text = HEAD.replace("{auto}", "False").replace("{body}", NESTED_BLOCKS.format(bounds="n"))
    assert_blocks_of_both_counts(*placed_before_the_block(path, text, tmp_path, outer=True))
    check_runs(path)


def test_a_block_in_a_loop_of_another_block_whose_inner_count_reads_the_outer_variable_is_a_located_error(tmp_path):
    """The inner loop's run count reads the outer loop's variable: no one shape of filled blocks
    before the outer block (it was a located error before the inner block's count was made)."""
    text = HEAD.replace("{auto}", "False").replace("{body}", NESTED_BLOCKS.format(bounds="k, n"))
    message = refused_at(tmp_path / "nested.py", text, "t = pl.create_tensor(")
    assert "created with an initial value in a loop inside a `with` block, written in the block" in message
    assert "is computed inside the block" in message and "fills a buffer only when it allocates it" in message


def check_nest_runs(path) -> None:
    """Checked for hazards, values and freed buffers (the runtime model's use after its scope) for
    ``n`` and ``m`` each 0 (no run: the name after the block holds what it held before), 1 and
    more."""
    def freed(result, values):
        return "; ".join(result.runtime.warnings) or None

    runs = [{"n": str(n), "m": str(m)} for n in range(4) for m in range(4)]
    assert check_text(path.read_text(), runs, Findings(), extra=freed) == []


def nest_program(scope: str, lines: list[str], loop: str, before: str = "") -> str:
    """``program`` with a second scalar parameter ``m``."""
    text = program(scope, lines, loop, before)
    return text.replace("n: pl.Scalar[pl.INT64],", "n: pl.Scalar[pl.INT64],\n        m: pl.Scalar[pl.INT64],")


# (name, scope, loop body, outer loop, the offset of the run's block (a regular expression; R: a
# run count let), [line before]): a nest of loops of the block around an allocation, one or more
# of a trip count known only at run time, every loop's bounds read before the block (warned
# about, or refused for a create with an initial value the block writes, before): one buffer of
# max(R, 1) row blocks made (and filled) before the block, R the product of the loops' run counts
# counted there, run q (the linear combination of the loops' run indices) taking block q
R = r"runs__out_v\d+"
RUN_TIME_NESTS = {
    "create_with_an_initial_value_written_by_a_task": (
        "pl.scope()", ["for j in pl.range(m):", "    t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)",
                       "    w = self.upd(x, t)"], "range(n)", rf"\(i \* {R} \+ j\) \* 8"),
    "create_with_an_initial_value_written_by_a_task_in_manual": (
        "pl.manual_scope()", ["for j in pl.range(m):",
                              "    t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)",
                              "    w, p = pl.submit(self.upd, x, t, deps=[])"], "range(n)", rf"\(i \* {R} \+ j\) \* 8"),
    # (an inner loop of a constant trip count: a constant factor)
    "create_with_an_initial_value_in_a_loop_of_constant_trip_count_in_a_loop": (
        "pl.scope()", ["for j in pl.range(2):", "    t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)",
                       "    w = self.upd(x, t)"], "range(n)", r"\(i \* 2 \+ j\) \* 8"),
    "create_with_an_initial_value_written_by_the_host_in_a_parallel_loop_in_manual": (
        "pl.manual_scope()", ["for j in pl.parallel(m):",
                              "    w = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)",
                              "    pl.tensor.write(w, [1, j], 2.0)"], "range(n)", rf"\(i \* {R} \+ j\) \* 8"),
    "create_with_an_initial_value_written_by_the_host_in_a_loop_of_a_parallel_loop_in_auto": (
        "pl.scope()", ["for j in pl.range(m):", "    w = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)",
                       "    pl.tensor.write(w, [j, 1], 2.0)"], "parallel(n)", rf"\(i \* {R} \+ j\) \* 8"),
    # three loops, a step and a start, bounds computed in the block from names bound before it
    "create_with_an_initial_value_in_three_loops": (
        "pl.manual_scope()", ["for j in pl.range(1, k, 2):", "    for h in pl.parallel(m):",
                              "        t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)",
                              "        w, p = pl.submit(self.upd, x, t, deps=[])"], "range(n)",
        rf"\(\(i \* {R} \+ \(j - 1\) / 2\) \* {R} \+ h\) \* 8", "            k = m * 2 - 1"),
    # buffers that live at once: each run reads the buffer of the run before while it writes its own
    # (the user orders the runs in the manual scope: each reads what the one before wrote)
    "runtime_output_read_by_the_next_run_in_manual": (
        "pl.manual_scope()", ["for j in pl.range(m):", "    w, p = pl.submit(self.rd, w, deps=[p])"], "range(n)",
        rf"\(i \* {R} \+ j\) \* 8", "            p = None"),
    "runtime_output_read_by_the_next_run_in_auto": (
        "pl.scope()", ["for j in pl.range(m):", "    w, p = pl.submit(self.rd, w)"], "range(n)", rf"\(i \* {R} \+ j\) \* 8"),
    # the iterations of a pl.parallel loop of a run-time trip count in a loop: may run at once
    "runtime_output_in_a_parallel_loop_in_a_loop_in_manual": (
        "pl.manual_scope()", ["for j in pl.parallel(m):", "    w, p = pl.submit(self.rd, x, deps=[])"], "range(n)",
        rf"\(i \* {R} \+ j\) \* 8"),
    "create_in_a_loop_in_a_parallel_loop_in_auto": (
        "pl.scope()", ["for j in pl.range(m):", "    t = pl.create_tensor([8, 8], dtype=pl.FP32)",
                       "    w = self.upd(x, t)", "    y = self.upd(w, y)"], "parallel(n)", rf"\(i \* {R} \+ j\) \* 8"),
    # a carry of the outer loop that keeps the first buffer for ever
    "a_buffer_kept_for_ever": (
        "pl.scope()", ["for j in pl.range(m):", "    w, p = pl.submit(self.rd, x)", "if i == 0:", "    v = w",
                       "y = self.upd(v, y)"], "range(n)", rf"\(i \* {R} \+ j\) \* 8", "        v = x"),
}


@pytest.mark.parametrize("name", sorted(RUN_TIME_NESTS))
def test_a_nest_with_run_time_trip_counts_gets_a_block_for_each_run_counted_before_the_block(name, tmp_path):
    scope, lines, loop, offset, *before = RUN_TIME_NESTS[name]
    path = tmp_path / f"{name}.py"
    code, block = placed_before_the_block(path, nest_program(scope, lines, loop, *before), tmp_path)
    assert_counted_before_the_block(code, block)  # max(R, 1) row blocks, R the product of the loops' counts
    offsets = re.search(rf"_offsets\[2\] = \{{static_cast<uint32_t>\({offset}\), 0\}};", code[block:])
    assert offsets is not None, code[block:]
    assert all(f"int64_t {name} = " in code[:block] for name in re.findall(R, offsets.group(0)))
    check_nest_runs(path)


NESTED_BLOCKS_OF_NESTS = '''        with pl.scope():
            for k in pl.range(n):
                for h in pl.parallel(2):
                    with pl.manual_scope():
                        for i in pl.range(m):
                            for j in pl.range(1, n):
                                t = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=1.0)
                                w, p = pl.submit(self.upd, x, t, deps=[])'''


def test_a_block_in_a_nest_of_another_block_around_a_nest_gets_the_blocks_of_both_counts_before_the_outer_block(
        tmp_path):
    """The buffer of max(R, 1) filled blocks placed before the inner block (R = m * (n - 1), both
    at least 0) is placed again before the outer one, as max(R', 1) blocks of it (R' = n * 2): the
    inner count's lets are copied there."""
    path = tmp_path / "nested.py"
    text = HEAD.replace("{auto}", "False").replace("{body}", NESTED_BLOCKS_OF_NESTS)
    text = text.replace("n: pl.Scalar[pl.INT64],", "n: pl.Scalar[pl.INT64],\n        m: pl.Scalar[pl.INT64],")
    assert_blocks_of_both_counts(*placed_before_the_block(path, text, tmp_path, outer=True))
    check_nest_runs(path)
