"""Compiler bugs found by the issue-7 semantic checks, each with the smallest program showing it."""

from __future__ import annotations

import pytest

from conftest import compile_check, load_program

import nanopass
from nanopass.tools.check import check_program

UNUSED_TID = '''
import nanopass.dsl as pl

@pl.program
class UnusedTid:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            y, tid = pl.submit(self.k, a, y)
        return y
'''


def test_a_submit_whose_task_id_is_never_used_captures_no_outputs(tmp_path):
    # lower_to_emission captured `TaskOutputTensors task_0_outs = ...` for every pl.submit, and
    # g++ -Wall -Werror rejects the unused variable.
    path = tmp_path / "unused_tid.py"
    path.write_text(UNUSED_TID)
    code = nanopass.generate_orchestration(load_program(path)).code
    assert "    rt_submit_aiv_task(0, params_t0);" in code and "task_0_outs" not in code
    compile_check(code, tmp_path)


WRITE_THROUGH_VIEW = '''
import nanopass.dsl as pl

@pl.program
class WriteThroughView:
    @pl.function(type=pl.FunctionType.AIV)
    def k_copy(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 8], pl.FP32], big: pl.Out[pl.Tensor[[16, 8], pl.FP32]]) -> pl.Tensor[[16, 8], pl.FP32]:
        c: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32)
        c = self.k_copy(x, c)
        t = pl.tensor.transpose(c, 0, 1)
        t = self.k_copy(x, t)
        top = pl.tensor.slice(big, [8, 8], [0, 0])
        top = self.k_copy(c, top)
        again = pl.tensor.slice(big, [8, 8], [4, 0])
        again = self.k_copy(x, again)
        return big
'''


def test_a_write_through_a_view_waits_for_earlier_writers_of_the_buffer(tmp_path):
    # derive_call_directions took a view for a buffer of its own, so a write through a transpose
    # or slice of an already-written buffer was OUTPUT_EXISTING and the runtime did not order it
    # after the earlier writers (write-after-write races found by the generated AUTO programs).
    path = tmp_path / "view.py"
    path.write_text(WRITE_THROUGH_VIEW)
    code = nanopass.generate_orchestration(load_program(path)).code
    assert code.count("add_output(") == 2 and code.count("add_inout(") == 2
    assert check_program(load_program(path), {}).hazards == []


UNUSED_OUTPUTS = '''
import nanopass.dsl as pl

@pl.program
class UnusedOutputs:
    @pl.function(type=pl.FunctionType.AIV)
    def k_new(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 8], pl.FP32], y: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        fresh, t0 = pl.submit(self.k_new, x)
        b0 = pl.system.task_dummy(deps=[])
        b1 = pl.system.task_dummy(deps=[t0])
        y = self.k_new(x, y)
        return y
'''


def test_unused_runtime_outputs_and_barriers_declare_nothing(tmp_path):
    # lower_to_emission bound every runtime-allocated output (const Tensor& fresh = ...get_ref(0))
    # and every barrier's TaskId even when nothing read them: unused variables under -Werror.
    path = tmp_path / "unused_outputs.py"
    path.write_text(UNUSED_OUTPUTS)
    program = load_program(path)
    # (without the lean passes: drop_unwaited_dummies would drop both barriers, nothing waits for them)
    code = nanopass.generate_orchestration(program, lean_edges=False).code
    assert "get_ref" not in code and "PTO2TaskId b0" not in code and "PTO2TaskId b1" not in code
    assert "if (params_phase_fence_barrier_1_deps_count > 0) {" in code
    compile_check(code, tmp_path)
    kinds = [t.kind for t in check_program(program, {}, options={"lean_edges": False}).emission.tasks()]
    assert kinds == ["kernel", "dummy", "dummy", "kernel"]
    assert [t.kind for t in check_program(program, {}).emission.tasks()] == ["kernel", "kernel"]


WRITE_THROUGH_CARRY = '''
import nanopass.dsl as pl

@pl.program
class WriteThroughCarry:
    @pl.function(type=pl.FunctionType.AIV)
    def k_copy(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 8], pl.FP32], y0: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
             y1: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        for i, (p, q) in pl.range(2, init_values=(y0, y0)):
            p = self.k_copy(x, p)
            a, b = pl.yield_(y1, p)
        y1 = self.k_copy(x, y1)
        y0 = self.k_copy(b, y0)
        return y0
'''


def test_a_write_through_a_carry_counts_for_every_buffer_the_carry_holds(tmp_path):
    # The carry p holds y0, then y1: the loop writes y1 in its second iteration, so the write of
    # y1 after the loop must wait for it (it was OUTPUT_EXISTING: a write-after-write race found
    # by the long fuzz run).
    path = tmp_path / "carry.py"
    path.write_text(WRITE_THROUGH_CARRY)
    program = load_program(path)
    assert "params_t1.add_inout(ext_y1);" in nanopass.generate_orchestration(program).code
    assert check_program(program, {}).hazards == []


TASK_ID_COPY = '''
import nanopass.dsl as pl

@pl.program
class TaskIdCopy:
    @pl.function(type=pl.FunctionType.AIV)
    def k_copy(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 8], pl.FP32], y: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        with pl.manual_scope():
            last = None
            y, t0 = pl.submit(self.k_copy, x, y)
            last = t0
            y, t1 = pl.submit(self.k_copy, x, y, deps=[last])
        return y
'''


def test_a_task_id_copy_that_edges_see_through_is_not_declared(tmp_path):
    # `last = t0` became `PTO2TaskId last__ssa_v1 = t0;` although the dependency edge reads t0's
    # storage directly: an unused variable under -Werror (found by the g++ fuzz run).
    path = tmp_path / "copy.py"
    path.write_text(TASK_ID_COPY)
    program = load_program(path)
    code = nanopass.generate_orchestration(program).code
    assert "last__ssa_v1" not in code and "params_t1_deps[params_t1_deps_count++] = t0;" in code
    compile_check(code, tmp_path)
    assert check_program(program, {}).hazards == []


SWAPPED_CARRIES = '''
import nanopass.dsl as pl

@pl.program
class SwappedCarries:
    @pl.function(type=pl.FunctionType.AIC)
    def k_mm(self, a: pl.Tensor[[8, 8], pl.FP32], b: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x0: pl.Tensor[[8, 8], pl.FP32], y0: pl.InOut[pl.Tensor[[8, 8], pl.FP32]], y1: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        for i0, (p1, q2) in pl.range(2, init_values=(y1, y0)):
            q2 = self.k_mm(y1, q2, q2)
            o8, o9 = pl.yield_(y1, p1)
        y0 = self.k_mm(o8, o9, y0)
        return y0
'''


def test_issue10_a_write_through_a_carry_that_may_hold_several_buffers_supersedes_no_read(tmp_path):
    # order_write_after_read let a write through q2 (y0 in the first iteration, y1 in the second)
    # cover the task's own read of y1, so the second iteration's add_inout(y1) did not wait for
    # the first iteration's add_input(y1) (found by the fuzzer: a WAR in an AUTO program).
    path = tmp_path / "swapped.py"
    path.write_text(SWAPPED_CARRIES)
    program = load_program(path)
    off = check_program(program, {}, options={"order_war": False})
    assert [(h.kind, h.buffer) for h in off.failing] == [("WAR", "in2")]
    on = check_program(program, {})
    assert on.hazards == [] and on.emission.tasks()[1].deps == (on.emission.tasks()[0].id,)


KERNELS = '''
import nanopass.dsl as pl

@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k_new(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def k_acc(self, a: pl.Tensor[[8, 8], pl.FP32], acc: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], acc)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 8], pl.FP32], y: pl.InOut[pl.Tensor[[8, 8], pl.FP32]], n: pl.Scalar[pl.INT64],
             big: pl.InOut[pl.Tensor[[32, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
'''


def checked(tmp_path, body: str, values=None, options=None):
    """``check_program`` (with the compiled C++) of the kernels above and an orchestration body."""
    path = tmp_path / "program.py"
    path.write_text(KERNELS + body)
    return check_program(load_program(path), values or {"n": "2"}, gxx=True, options=options)


def test_issue10_a_runtime_allocated_output_read_in_a_later_manual_scope_gets_an_edge(tmp_path):
    # The static hazards had no write for an output the runtime allocates (k_new omits `out`), so
    # order_write_after_read gave the manual scope's reader no edge from its producer.
    result = checked(tmp_path, '''
        r, t = pl.submit(self.k_new, x)
        with pl.manual_scope():
            y, u = pl.submit(self.k_acc, r, y)
        return y
''')
    producer, reader = result.emission.tasks()
    assert result.hazards == [] and reader.deps == (producer.id,)


def test_a_view_made_in_a_manual_scope_and_read_after_it_is_assigned_to_its_declaration(tmp_path):
    # lower_to_emission skipped `v_value = transpose(...)` as an unused pure let, then assigned
    # the undeclared v_value to the hoisted `Tensor v;`.
    result = checked(tmp_path, '''
        with pl.manual_scope():
            v = pl.tensor.transpose(x, 0, 1)
            y, t = pl.submit(self.k_acc, v, y)
        y = self.k_acc(v, y)
        return y
''')
    assert len(result.compiled.tasks()) == 2 and result.compiled.tasks()[1].tensors[0].view.strides == (1, 8)


ELEMENT_AFTER_SCOPE = '''
        with pl.manual_scope():
            a = pl.array.create(4, pl.INT64)
            a[1] = n
            e = a[1]
            y, t = pl.submit(self.k_acc, x, y)
        y = self.k_acc(x, y)
        if e > 0:
            y = self.k_acc(x, y)
        return y
'''


def test_an_array_element_read_in_a_manual_scope_and_used_after_it_is_assigned_to_its_declaration(tmp_path):
    # `e = a[1]` became a second `int64_t e` inside the scope's block; the hoisted one stayed unset.
    assert len(checked(tmp_path, ELEMENT_AFTER_SCOPE, {"n": "2"}).compiled.tasks()) == 3
    assert len(checked(tmp_path, ELEMENT_AFTER_SCOPE, {"n": "0"}).compiled.tasks()) == 2


def test_issue6_derived_edges_wait_for_every_iteration_of_a_parallel_loop(tmp_path):
    # With analyze_auto_scopes_for_deps the function becomes a MANUAL scope, where the runtime no
    # longer orders the InOut runs of a pl.parallel loop among themselves; the reader after the
    # loop waited only for the last run (a cell) instead of all of them (a join).
    result = checked(tmp_path, '''
        for i in pl.parallel(2):
            y = self.k_acc(x, y)
        y = self.k_acc(y, y)
        return y
''', options={"analyze_auto_scopes_for_deps": True})
    kernels = [t for t in result.emission.tasks() if t.kind == "kernel"]
    assert [t.mode for t in kernels] == ["manual"] * 3 and result.failing == []


def test_issue10_a_manual_task_waits_for_every_run_of_a_loop_writing_slices_at_computed_offsets(tmp_path):
    # The loop's InOut runs write big[0:8] then big[8:16]: the runtime does not chain them (the
    # regions differ), yet the manual task got an edge from the last run only (a cell) and read
    # big[0:8] unordered after the first run (found by the long fuzz run).
    result = checked(tmp_path, '''
        for i in pl.range(2):
            s = pl.tensor.slice(big, [8, 8], [(i % 4) * 8, 0])
            s = self.k_acc(x, s)
        with pl.manual_scope():
            first = pl.tensor.slice(big, [8, 8], [0, 0])
            first, t = pl.submit(self.k_acc, first, first)
        return y
''')
    writers = [t.id for t in result.emission.tasks() if t.kernel == "k_acc"][:2]
    assert result.hazards == [] and len(result.compiled.tasks()) == len(result.emission.tasks())
    assert set(writers) <= _waits_for(result.emission, result.emission.tasks()[-1])


def _waits_for(trace, task) -> set[int]:
    """The task ids ``task`` waits for through explicit dependencies, transitively."""
    by_id = {t.id: t for t in trace.tasks()}
    seen, stack = set(), list(task.deps)
    while stack:
        dep = stack.pop()
        if dep not in seen:
            seen.add(dep)
            stack.extend(by_id[dep].deps)
    return seen


VIEW_OF_MANUAL_DEP = '''
import nanopass.dsl as pl

@pl.program
class ViewOfManualDep:
    @pl.function(type=pl.FunctionType.AIV)
    def k_add(self, a: pl.Tensor[[4, 8], pl.FP32], b: pl.Tensor[[4, 8], pl.FP32], c: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        return c

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[4, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        m: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32, manual_dep=True)
        t: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32)
        a = m
        b = t
        for i in pl.range(2):
            c = a
            a = b
            b = c
        mixed = pl.tensor.slice(a, [4, 8], [0, 0])
        top = pl.tensor.slice(m, [4, 8], [0, 0])
        flat = pl.tensor.reshape(top, [8, 4])
        flipped = pl.tensor.transpose(flat, 0, 1)
        with pl.manual_scope():
            flipped, t1 = pl.submit(self.k_add, x, x, flipped, deps=[])
            mixed, t2 = pl.submit(self.k_add, x, x, mixed, deps=[])
        y = self.k_add(flipped, mixed, y)
        return y
'''


def test_a_view_of_a_manual_dep_buffer_stays_untracked(tmp_path):
    # The runtime's view ops reset manual_dep unless told otherwise, while the compiler derived no
    # edges for a view of a manual_dep buffer (like the buffer): a write through the view in a
    # manual scope never entered the TensorMap, and the read after the scope waited for nothing.
    # Views that can only alias manual_dep buffers now pass in_manual_dep = true; a view of a carry
    # that may hold a tracked buffer stays tracked, and its writer is ordered by a compiler edge.
    path = tmp_path / "view_of_manual_dep.py"
    path.write_text(VIEW_OF_MANUAL_DEP)
    program = load_program(path)
    code = nanopass.generate_orchestration(program).code
    assert "Tensor top = m.view(top_shapes, top_offsets, /*in_manual_dep=*/true);" in code
    assert "Tensor flat = top.reshape(flat_shapes, 2, /*in_manual_dep=*/true);" in code
    assert "Tensor flipped = flat.transpose(0, 1, /*in_manual_dep=*/true);" in code
    assert "Tensor mixed = a__rv_v2.view(mixed_shapes, mixed_offsets);" in code
    assert "set_dependencies(" in code  # the last task waits for the write through `mixed`
    compile_check(code, tmp_path)
    report = check_program(program, {})
    assert report.failing == []
    written = [t.tensors[2].manual_dep for t in report.emission.tasks()]
    assert written == [True, False, False]  # through flipped, through mixed, the caller's y


ONE_ENTRY_BARRIERS = '''
import nanopass.dsl as pl

@pl.program
class OneEntry:
    @pl.function(type=pl.FunctionType.AIV)
    def k_new(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 8], pl.FP32], y: pl.Out[pl.Tensor[[8, 8], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 8], pl.FP32]:
        fresh, t0 = pl.submit(self.k_new, x)
        t1 = None
        if n > 1:
            other, t1 = pl.submit(self.k_new, x)
        b = pl.system.task_dummy(deps=[t0, t1])
        y, t2 = pl.submit(self.k_new, x, y, deps=[b])
        return y
'''


@pytest.mark.parametrize("n", ["0", "3"])
def test_a_barrier_with_one_valid_entry_is_that_task_id_in_every_trace(tmp_path, n):
    # (a dummy whose entries stand for one task orders what that task orders: it is not submitted)
    path = tmp_path / "one_entry.py"
    path.write_text(ONE_ENTRY_BARRIERS)
    program = load_program(path)
    code = nanopass.generate_orchestration(program).code
    assert "if (params_phase_fence_barrier_0_deps_count == 1) {" in code
    assert "b = params_phase_fence_barrier_0_deps[0];" in code
    result = check_program(program, {"n": n}, gxx=True)
    assert result.failing == [] and result.fatal is None
    assert result.compiled is not None  # (the C++ ran on the recording runtime, its trace agreed)
    tasks = result.emission.tasks()
    if n == "0":  # one entry: t0 itself
        assert [t.kind for t in tasks] == ["kernel", "kernel"] and tasks[1].deps == (tasks[0].id,)
    else:
        assert [t.kind for t in tasks] == ["kernel", "kernel", "dummy", "kernel"]
        assert tasks[3].deps == (tasks[2].id,)


PARALLEL_CARRY_BARRIER = '''
import nanopass.dsl as pl

@pl.program
class ParallelCarry:
    @pl.function(type=pl.FunctionType.AIV)
    def k_acc(self, a: pl.Tensor[[8, 8], pl.FP32], acc: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], acc)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 8], pl.FP32], y: pl.InOut[pl.Tensor[[8, 8], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 8], pl.FP32]:
        with pl.manual_scope():
            c = None
            for i in pl.parallel(2):
                y, t = pl.submit(self.k_acc, x, y, deps=[c])
                c = t
            b = pl.system.task_dummy(deps=[c])
            y, last = pl.submit(self.k_acc, y, y, deps=[b])
        return y
'''


def test_a_barrier_on_a_task_id_carried_through_a_parallel_loop_is_submitted(tmp_path):
    # (found by fuzz_deps --tally --seed 5000, seed 5389) the carry stands for both iterations'
    # TaskIds, two entries in the C++: the one-entry rule must not take it for one
    path = tmp_path / "parallel_carry.py"
    path.write_text(PARALLEL_CARRY_BARRIER)
    result = check_program(load_program(path), {"n": "1"}, gxx=True)
    assert result.failing == [] and result.fatal is None and result.compiled is not None
    assert [t.kind for t in result.emission.tasks()] == ["kernel", "kernel", "dummy", "kernel"]
