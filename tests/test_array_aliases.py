"""Decision D18 (docs/decisions.md): a read through one name of an array after a slot write
through another is a user error at the read.

Names share an array by ``old = tids``, a loop carry and its ``init_values``, a loop result and
what it yields, an ``if`` result and its branches. Before the decision the C++ read one storage
through both names while the reference interpreter and the dependency passes took ``old`` as the
slots before a later write through ``tids``: ``nanopass check`` reported a trace mismatch, and
the C++ left conflicting tasks unordered (a dependency the passes counted on named another task
in the C++). Every program of ``REFUSED`` compiled before (each fails this test on 752f055).

Each program below starts the same way (``HEAD``, lines 1-18): task 0 (line 16) writes ``y`` and
its TaskId goes in ``tids[0]``; task 1 (line 18) writes ``z``. The body starts at line 19.
"""

from __future__ import annotations

import json

import pytest

from conftest import run_cli

HEAD = '''import nanopass.dsl as pl


@pl.program
class ArrayNames:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
            z: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            tids = pl.array.create(2, pl.TASK_ID)
            y, first = pl.submit(self.step, x, y)
            tids[0] = first
            z, second = pl.submit(self.step, x, z)
'''
TAIL = '''        return y
'''

def _read_after_write(name: str, writer: str, line: int) -> str:
    return f"'{name}' is read after a slot write through '{writer}' at line {line}, and both name one array"


# name -> (body, line:col of the error, what the message says)
REFUSED = {
    # the fuzzer's program: a trace mismatch and, in the C++, task 2 after task 1 only, so tasks 0
    # and 2 both wrote y unordered
    "written_through_the_first_name_read_through_the_second": ('''\
            old = tids
            tids[0] = second
            y, t = pl.submit(self.step, x, y, deps=[old[0]])
            z, u = pl.submit(self.step, x, z, deps=[tids[0]])
''', "21:53", _read_after_write("old", "tids", 20)),
    "written_through_the_second_name_read_through_the_first": ('''\
            old = tids
            old[0] = second
            y, t = pl.submit(self.step, x, y, deps=[tids[0]])
            z, u = pl.submit(self.step, x, z, deps=[old[0]])
''', "21:53", _read_after_write("tids", "old", 20)),
    "whole_array_dependency": ('''\
            old = tids
            tids[0] = second
            y, t = pl.submit(self.step, x, y, deps=[old])
            z, u = pl.submit(self.step, x, z, deps=[tids[0]])
''', "21:53", _read_after_write("old", "tids", 20)),
    "dummy_task_on_the_second_name": ('''\
            old = tids
            tids[0] = second
            d = pl.system.task_dummy(deps=[old])
            y, t = pl.submit(self.step, x, y, deps=[d])
            z, u = pl.submit(self.step, x, z, deps=[tids[0]])
''', "21:44", _read_after_write("old", "tids", 20)),
    "slot_snapshot_then_the_second_name_read": ('''\
            old = tids
            p = old[0]
            tids[0] = second
            y, t = pl.submit(self.step, x, y, deps=[p])
            z, u = pl.submit(self.step, x, z, deps=[tids[0], old[1]])
''', "23:62", _read_after_write("old", "tids", 21)),
    "if_result": ('''\
            other = pl.array.create(2, pl.TASK_ID)
            if c > 0:
                old = tids
            else:
                old = other
            tids[0] = second
            y, t = pl.submit(self.step, x, y, deps=[old[0]])
            z, u = pl.submit(self.step, x, z, deps=[tids[0]])
''', "25:53", _read_after_write("old", "tids", 24)),
    "loop_carry_read_through_the_init_name_after_the_loop": ('''\
            for i, (acc,) in pl.range(1, init_values=(tids,)):
                acc[0] = second
                res = pl.yield_(acc)
            y, t = pl.submit(self.step, x, y, deps=[tids[0]])
            z, u = pl.submit(self.step, x, z, deps=[res[0]])
''', "22:53", _read_after_write("tids", "acc", 20)),
    "parallel_carry_in_a_manual_scope": ('''\
            for i, (acc,) in pl.parallel(1, init_values=(tids,)):
                acc[0] = second
                res = pl.yield_(acc)
            y, t = pl.submit(self.step, x, y, deps=[tids[0]])
            z, u = pl.submit(self.step, x, z, deps=[res[0]])
''', "22:53", _read_after_write("tids", "acc", 20)),
    "init_name_written_in_the_loop_body": ('''\
            for i, (acc,) in pl.range(1, init_values=(tids,)):
                tids[0] = second
                y, t = pl.submit(self.step, x, y, deps=[acc[0]])
                res = pl.yield_(acc)
            z, u = pl.submit(self.step, x, z, deps=[tids[0], res[1]])
''', "21:57", _read_after_write("acc", "tids", 20)),
    "while_carry": ('''\
            for (k, acc) in pl.while_(init_values=(0, tids)):
                pl.cond(k < 1)
                acc[0] = second
                k2, res = pl.yield_(k + 1, acc)
            y, t = pl.submit(self.step, x, y, deps=[tids[0]])
            z, u = pl.submit(self.step, x, z, deps=[res[0]])
''', "23:53", _read_after_write("tids", "acc", 21)),
    "same_array_as_two_init_values": ('''\
            for i, (a, b) in pl.range(1, init_values=(tids, tids)):
                a[0] = second
                ra, rb = pl.yield_(a, b)
            y, t = pl.submit(self.step, x, y, deps=[rb[0]])
''', "21:39", _read_after_write("b", "a", 20)),
    "result_read_after_a_write_through_the_init_name": ('''\
            for i, (acc,) in pl.range(1, init_values=(tids,)):
                y, t = pl.submit(self.step, x, y, deps=[acc[0]])
                res = pl.yield_(acc)
            tids[0] = second
            z, u = pl.submit(self.step, x, z, deps=[res[0]])
''', "23:53", _read_after_write("res", "tids", 22)),
    # the guard is a constant, true in the second copy of the body
    "write_in_a_branch_a_constant_guard_takes_in_one_copy": ('''\
            old = tids
            for i in pl.unroll(2):
                if i == 1:
                    tids[0] = second
            y, t = pl.submit(self.step, x, y, deps=[old[0]])
            z, u = pl.submit(self.step, x, z, deps=[tids[0]])
''', "23:53", _read_after_write("old", "tids", 22)),
    # the inner loop's carry is the outer tids again on the outer loop's next iteration: the C++
    # then ordered task 4 after task 2's write of slot 0 only, not after task 2 itself
    "init_value_inside_an_enclosing_loop": ('''\
            for j in pl.range(2):
                for i, (acc,) in pl.range(1, init_values=(tids,)):
                    y, t = pl.submit(self.step, x, y, deps=[acc[0]])
                    acc[0] = t
                    res = pl.yield_(acc)
                z, u = pl.submit(self.step, x, z, deps=[res[0]])
''', "20:59", "'tids' is read in the loop at line 19, whose next iteration reads it after the slot write through "
              "'acc' at line 22"),
    "second_name_made_in_a_loop_that_writes_the_first": ('''\
            old = pl.array.create(2, pl.TASK_ID)
            for j in pl.range(2):
                tids[0] = second
                y, t = pl.submit(self.step, x, y, deps=[old[0]])
                old = tids
            z, u = pl.submit(self.step, x, z, deps=[second])
''', "23:17", "'old' and 'tids' are made names of one array in the loop at line 20, which writes a slot through "
              "'tids' at line 21"),
    "second_name_made_in_a_loop_that_writes_through_it_and_reads_the_first": ('''\
            old = pl.array.create(2, pl.TASK_ID)
            for j in pl.range(c):
                y, t = pl.submit(self.step, x, y, deps=[old[0]])
                old[0] = t
                old = tids
            z, u = pl.submit(self.step, x, z, deps=[tids[0], old[1], second])
''', "23:17", "'old' and 'tids' are made names of one array in the loop at line 20, which writes a slot through "
              "'old' at line 22 and reads 'tids' at line 23"),
    # nothing reads 'tids' after its write, so the C++ would drop it too, but in Python 'old' sees it
    "write_through_a_name_nothing_reads_after_it": ('''\
            old = tids
            tids[0] = second
            y, t = pl.submit(self.step, x, y, deps=[old[0]])
''', "21:53", _read_after_write("old", "tids", 20) + ": 'old' would see the write in Python"),
    # 'tids' is never bound again in the loop: from the third iteration on, it reads (in Python)
    # what the iteration before wrote through 'old', its second name since the first
    "first_name_read_before_a_write_through_the_second_and_never_bound_again": ('''\
            old = pl.array.create(2, pl.TASK_ID)
            for j in pl.range(c):
                y, t = pl.submit(self.step, x, y, deps=[tids[0]])
                old[0] = t
                old = tids
            z, u = pl.submit(self.step, x, z, deps=[tids[0], old[1], second])
''', "23:17", "'old' and 'tids' are made names of one array in the loop at line 20, which writes a slot through "
              "'old' at line 22 and reads 'tids' at line 21"),
    # bound again only on the first iteration's path: the second reads it after the write
    "second_name_given_in_a_branch_of_a_loop_read_after_the_write": ('''\
            old = pl.array.create(2, pl.TASK_ID)
            for j in pl.range(2):
                if j == 0:
                    old = tids
                y, t = pl.submit(self.step, x, y, deps=[old[0]])
                tids[0] = t
            z, u = pl.submit(self.step, x, z, deps=[tids[0], second])
''', "23:57", "'old' is read in the loop at line 20, whose next iteration reads it after the slot write through "
              "'tids' at line 24"),
    "yield_of_an_array_bound_before_the_loop_written_through_the_carry": ('''\
            other = pl.array.create(2, pl.TASK_ID)
            for i, (acc,) in pl.range(2, init_values=(other,)):
                w = pl.create_tensor([16, 16], dtype=pl.FP32)
                w, t = pl.submit(self.step, x, w, deps=[acc[0]])
                acc[1] = t
                res = pl.yield_(tids)
            z, u = pl.submit(self.step, x, z, deps=[res[0], second])
''', "24:33", "the loop at line 20 yields an array 'tids' names to its carry 'acc'"),
}


# name -> (body, values of c, {line of a task: its dependencies (trace task ids)} or None)
ACCEPTED = {
    "second_name_only_after_the_first_gave_it": ('''\
            old = tids
            old[0] = second
            y, t = pl.submit(self.step, x, y, deps=[old[0], first])
''', ["1"], {21: [1, 0]}),
    # a slot read is a value: it keeps the task it read after the slot is written
    "yield_of_an_array_bound_before_the_loop": ('''\
            other = pl.array.create(2, pl.TASK_ID)
            for i, (acc,) in pl.range(2, init_values=(other,)):
                w = pl.create_tensor([16, 16], dtype=pl.FP32)
                w, t = pl.submit(self.step, x, w, deps=[acc[0]])
                res = pl.yield_(tids)
            z, u = pl.submit(self.step, x, z, deps=[res[0], second])
''', ["1"], {24: [0, 1]}),
    "slot_snapshot_then_a_write_through_the_first_name": ('''\
            old = tids
            p = old[0]
            tids[0] = second
            y, t = pl.submit(self.step, x, y, deps=[p])
            z, u = pl.submit(self.step, x, z, deps=[tids[0]])
''', ["1"], {22: [0], 23: [1]}),
    "slot_snapshot_keeps_the_old_task": ('''\
            old = tids
            p = old[0]
            old[0] = second
            y, t = pl.submit(self.step, x, y, deps=[p])
            z, u = pl.submit(self.step, x, z, deps=[old[0]])
''', ["1"], {22: [0], 23: [1]}),
    "fresh_array_with_the_slots_copied": ('''\
            old = pl.array.create(2, pl.TASK_ID)
            for i in pl.range(2):
                slot = tids[i]
                old[i] = slot
            tids[0] = second
            y, t = pl.submit(self.step, x, y, deps=[old[0]])
            z, u = pl.submit(self.step, x, z, deps=[tids[0]])
''', ["1"], {24: [0], 25: [1]}),
    "loop_result_bound_to_the_init_name": ('''\
            for i, (acc,) in pl.range(1, init_values=(tids,)):
                acc[0] = second
                tids = pl.yield_(acc)
            z, u = pl.submit(self.step, x, z, deps=[tids[0]])
''', ["1"], {22: [1]}),
    "parallel_result_bound_to_the_init_name": ('''\
            for i, (acc,) in pl.parallel(1, init_values=(tids,)):
                acc[1] = second
                tids = pl.yield_(acc)
            y, t = pl.submit(self.step, x, y, deps=[tids[0], tids[1]])
''', ["1"], {22: [0, 1]}),
    "if_result_given_in_both_branches": ('''\
            other = pl.array.create(2, pl.TASK_ID)
            other[0] = second
            if c > 0:
                old = tids
            else:
                old = other
            y, t = pl.submit(self.step, x, y, deps=[old[0], first])
''', ["1", "0"], None),
    "dummy_task_on_the_name_given_to": ('''\
            old = tids
            old[1] = second
            d = pl.system.task_dummy(deps=[old])
            y, t = pl.submit(self.step, x, y, deps=[d])
''', ["1"], None),
    "name_given_away_and_bound_again": ('''\
            old = tids
            tids = pl.array.create(2, pl.TASK_ID)
            tids[0] = second
            y, t = pl.submit(self.step, x, y, deps=[old[0]])
            z, u = pl.submit(self.step, x, z, deps=[tids[0]])
''', ["1"], {22: [0], 23: [1]}),
    # the result is what the last iteration yielded (tids, not stale), whatever the carry acc is at
    # the body's end (stale after the write through tids); refused on 41ebca4
    "result_of_a_yield_of_the_init_name_written_in_the_body": ('''\
            for i, (acc,) in pl.range(c, init_values=(tids,)):
                y, t = pl.submit(self.step, x, y, deps=[acc[0]])
                tids[0] = t
                res = pl.yield_(tids)
            z, u = pl.submit(self.step, x, z, deps=[res[0], second])
''', ["2"], {20: [2], 23: [1, 3]}),
    # a branch that no run takes (its guard a constant of pl.unroll's copies) writes, binds and
    # reads nothing: each refused on 41ebca4
    "write_in_a_branch_a_constant_guard_skips": ('''\
            old = tids
            for i in pl.unroll(2):
                if i == 5:
                    tids[0] = second
            y, t = pl.submit(self.step, x, y, deps=[old[0]])
            z, u = pl.submit(self.step, x, z, deps=[tids[0], second])
''', ["1"], {23: [0], 24: [0, 1]}),
    "write_in_an_else_a_constant_guard_skips": ('''\
            old = tids
            for i in pl.unroll(2):
                if i < 5:
                    p = old[0]
                else:
                    tids[0] = second
            y, t = pl.submit(self.step, x, y, deps=[old[0]])
            z, u = pl.submit(self.step, x, z, deps=[tids[0], second])
''', ["1"], {25: [0], 26: [0, 1]}),
    "second_name_given_in_a_branch_a_constant_guard_skips": ('''\
            old = pl.array.create(2, pl.TASK_ID)
            old[0] = first
            for i in pl.unroll(2):
                if i == 5:
                    old = tids
            tids[0] = second
            y, t = pl.submit(self.step, x, y, deps=[old[0]])
            z, u = pl.submit(self.step, x, z, deps=[tids[0]])
''', ["1"], {25: [0], 26: [1]}),
    "write_in_a_skipped_branch_of_a_loop_reading_the_second_name": ('''\
            old = tids
            for j in pl.range(c):
                for i in pl.unroll(2):
                    if i == 5:
                        tids[0] = second
                y, t = pl.submit(self.step, x, y, deps=[old[0]])
                old[0] = t
            z, u = pl.submit(self.step, x, z, deps=[old[0], second])
''', ["3"], {24: [3], 26: [1, 4]}),
    # names made to share in a loop that writes their array, but nothing reads the other name
    # before the body binds it again: each refused on 41ebca4
    "second_name_made_in_a_loop_that_writes_and_reads_the_first_only": ('''\
            old = pl.array.create(2, pl.TASK_ID)
            for j in pl.range(c):
                y, t = pl.submit(self.step, x, y, deps=[tids[0]])
                tids[0] = t
                old = tids
            z, u = pl.submit(self.step, x, z, deps=[old[0], second])
''', ["3"], {21: [3], 24: [1, 4]}),
    "second_name_bound_again_before_its_read_in_a_loop_that_writes_the_first": ('''\
            old = pl.array.create(2, pl.TASK_ID)
            for j in pl.range(c):
                old = tids
                y, t = pl.submit(self.step, x, y, deps=[old[0]])
                tids[0] = t
            z, u = pl.submit(self.step, x, z, deps=[tids[0], second])
''', ["3"], {22: [3], 24: [1, 4]}),
    "init_value_inside_an_enclosing_loop_bound_again_after": ('''\
            for j in pl.range(2):
                for i, (acc,) in pl.range(1, init_values=(tids,)):
                    y, t = pl.submit(self.step, x, y, deps=[acc[0]])
                    acc[0] = t
                    tids = pl.yield_(acc)
            z, u = pl.submit(self.step, x, z, deps=[tids[0], second])
''', ["1"], {24: [1, 3]}),
    # 'old' is read before the write through 'tids' and bound again after it: each iteration reads
    # it as the one before bound it, the slots written then (task 2 in the second iteration of
    # three, task 3 in the third), in Python as in SSA; refused on 299e181
    "second_name_read_before_a_write_through_the_first_and_bound_again_after": ('''\
            old = tids
            for j in pl.range(c):
                y, t = pl.submit(self.step, x, y, deps=[old[0]])
                tids[0] = t
                old = tids
            z, u = pl.submit(self.step, x, z, deps=[old[0], second])
''', ["3"], {21: [3], 24: [1, 4]}),
    # the same in a body that reads 'old' again after binding it, and binds it again only after
    # a second write
    "second_name_bound_again_after_each_write_through_the_first": ('''\
            old = tids
            for j in pl.range(c):
                y, t = pl.submit(self.step, x, y, deps=[old[0]])
                tids[0] = t
                old = tids
                z, u = pl.submit(self.step, x, z, deps=[old[0], old[1], second])
                tids[1] = u
                old = tids
            y, t = pl.submit(self.step, x, y, deps=[old[0], old[1]])
''', ["3"], {21: [4], 24: [1, 5, 6], 27: [6, 7]}),
}


def _program(tmp_path, name: str, body: str):
    path = tmp_path / f"{name}.py"
    path.write_text(HEAD + body + TAIL)
    return path


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_read_after_a_write_through_another_name_of_the_array_is_refused_where_it_reads(tmp_path, name):
    body, where, message = REFUSED[name]
    path = _program(tmp_path, name, body)
    result = run_cli("check", str(path), "--set", "c=1")
    assert result.returncode == 1, result.stdout + result.stderr
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{path}:{where}: error: {message}"), result.stderr
    assert "Traceback" not in result.stderr
    assert "help: " in result.stderr


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_names_of_one_array_read_before_any_write_through_another_are_checked_and_ordered(tmp_path, name):
    body, values, deps = ACCEPTED[name]
    path = _program(tmp_path, name, body)
    for value in values:
        trace = tmp_path / f"{name}_{value}.json"
        result = run_cli("check", str(path), "--set", f"c={value}", "--trace", str(trace))
        assert result.returncode == 0, result.stdout + result.stderr
        assert "traces agree" in result.stdout and result.stdout.endswith("\n0 hazards\n"), result.stdout
        tasks = {e["line"]: sorted(e["deps"]) for e in json.loads(trace.read_text())["events"] if e["op"] == "task"}
        for line, expected in (deps or {}).items():
            assert tasks[line] == sorted(expected), (line, tasks)


def test_an_if_result_given_in_both_branches_depends_on_the_branch_taken(tmp_path):
    body, _values, _deps = ACCEPTED["if_result_given_in_both_branches"]
    path = _program(tmp_path, "if_result", body)
    seen = {}
    for value in ("1", "0"):
        trace = tmp_path / f"if_{value}.json"
        result = run_cli("check", str(path), "--set", f"c={value}", "--trace", str(trace))
        assert result.returncode == 0, result.stdout + result.stderr
        seen[value] = [e["deps"] for e in json.loads(trace.read_text())["events"] if e.get("line") == 25][0]
    assert 1 not in seen["1"] and 1 in seen["0"], seen


# The existing compiler's printed IR names an array's versions itself:
# ``arr__ssa_v2 = pl.array.update_element(arr__ssa_v1, i, v)``. The C++ keeps one storage for an
# array and its updated versions (``arr[0] = t2;``), so a read of ``arr__ssa_v1`` after the update
# sees ``t2`` there while the passes and the interpreter read ``t1``: the same rule holds. Each
# program starts with ``PRINTED_HEAD`` (lines 1-15): task 0 (line 13) writes ``y`` and its TaskId
# ``t1`` goes in slot 0 of ``arr__ssa_v1`` (line 14); task 1 (line 15) writes ``z``. The body starts
# at line 16. Every program of ``PRINTED_REFUSED`` compiled before (the first, on 41ebca4: a trace
# mismatch, task 2 after task 1 in the C++ but after task 0 in the interpreter).
PRINTED_HEAD = '''# pypto.program: Versions
import pypto.language as pl

@pl.program
class Versions:
    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)
    def step(src: pl.Tensor[[16, 16], pl.FP32], dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], z: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.scope(mode=pl.ScopeMode.MANUAL):
            arr__ssa_v0: pl.Array[2, pl.TASK_ID] = pl.array.create(2, pl.TASK_ID)
            y__ssa_v1, t1 = pl.submit(self.step, x, y)
            arr__ssa_v1: pl.Array[2, pl.TASK_ID] = pl.array.update_element(arr__ssa_v0, 0, t1)
            z__ssa_v1, t2 = pl.submit(self.step, x, z)
'''
UPDATE_V2 = '''\
            arr__ssa_v2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(arr__ssa_v1, 0, t2)
'''
# a read of the updated version after the others: the update's result is read, so the C++ keeps it
READ_V2 = '''\
            z__ssa_v2, t4 = pl.submit(self.step, x, z__ssa_v1, deps=[arr__ssa_v2[0], t2])
'''
CARRY_LOOP = '''\
            for i, (a__iter_v1, y__iter_v1) in pl.range(2, init_values=(arr__ssa_v1, y__ssa_v1)):
'''


def _after_update(name: str, old: str, new: str, line: int) -> str:
    return (f"'{name}' is read after the update of '{old}' into '{new}' at line {line}, and both name one array: "
            f"the C++ keeps one storage for an array and its updated versions")


PRINTED_REFUSED = {
    "slot_of_the_old_version": (UPDATE_V2 + '''\
            y__ssa_v2, t3 = pl.submit(self.step, x, y__ssa_v1, deps=[arr__ssa_v1[0]])
''' + READ_V2, "17:70", _after_update("arr__ssa_v1", "arr__ssa_v1", "arr__ssa_v2", 16)),
    "old_version_as_a_whole_array_dependency": (UPDATE_V2 + '''\
            y__ssa_v2, t3 = pl.submit(self.step, x, y__ssa_v1, deps=[arr__ssa_v1])
''' + READ_V2, "17:70", _after_update("arr__ssa_v1", "arr__ssa_v1", "arr__ssa_v2", 16)),
    "old_version_in_a_dummy_task": (UPDATE_V2 + '''\
            d: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[arr__ssa_v1])
''' + READ_V2, "17:67", _after_update("arr__ssa_v1", "arr__ssa_v1", "arr__ssa_v2", 16)),
    "old_version_as_an_init_value": (UPDATE_V2 + CARRY_LOOP + '''\
                y__ssa_v3, t3 = pl.submit(self.step, x, y__iter_v1, deps=[a__iter_v1[0]])
                a__rv_v3, y__rv_v3 = pl.yield_(a__iter_v1, y__ssa_v3)
''' + READ_V2, "17:73", _after_update("arr__ssa_v1", "arr__ssa_v1", "arr__ssa_v2", 16)),
    "old_version_in_an_if_branch_after_the_update_in_it": ('''\
            if c > 0:
                arr__ssa_v2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(arr__ssa_v1, 0, t2)
                y__ssa_v2, t3 = pl.submit(self.step, x, y__ssa_v1, deps=[arr__ssa_v1[0]])
                arr__phi_v3: pl.Array[2, pl.TASK_ID] = pl.yield_(arr__ssa_v2)
            else:
                arr__phi_v3: pl.Array[2, pl.TASK_ID] = pl.yield_(arr__ssa_v1)
''', "18:74", _after_update("arr__ssa_v1", "arr__ssa_v1", "arr__ssa_v2", 17)),
    "old_version_after_an_if_that_updates_it": ('''\
            if c > 0:
                arr__ssa_v2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(arr__ssa_v1, 0, t2)
                arr__phi_v3: pl.Array[2, pl.TASK_ID] = pl.yield_(arr__ssa_v2)
            else:
                arr__phi_v3: pl.Array[2, pl.TASK_ID] = pl.yield_(arr__ssa_v1)
            y__ssa_v2, t3 = pl.submit(self.step, x, y__ssa_v1, deps=[arr__ssa_v1[0], arr__phi_v3[1]])
''', "21:70", _after_update("arr__ssa_v1", "arr__ssa_v1", "arr__ssa_v2", 17)),
    # on 41ebca4: a trace mismatch (the C++'s task 4 after task 3, the interpreter's after task 0)
    "init_version_after_a_loop_that_updates_its_carry": (CARRY_LOOP + '''\
                y__ssa_v3, t3 = pl.submit(self.step, x, y__iter_v1, deps=[a__iter_v1[0]])
                a__ssa_v2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(a__iter_v1, 0, t3)
                a__rv_v3, y__rv_v3 = pl.yield_(a__ssa_v2, y__ssa_v3)
            z__ssa_v2, t4 = pl.submit(self.step, x, y__rv_v3, deps=[arr__ssa_v1[0], t2])
''', "20:69", _after_update("arr__ssa_v1", "a__iter_v1", "a__ssa_v2", 18)),
    "carry_read_after_its_update_in_the_body": (CARRY_LOOP + '''\
                a__ssa_v2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(a__iter_v1, 0, t2)
                y__ssa_v3, t3 = pl.submit(self.step, x, y__iter_v1, deps=[a__iter_v1[0]])
                a__rv_v3, y__rv_v3 = pl.yield_(a__ssa_v2, y__ssa_v3)
''', "18:75", _after_update("a__iter_v1", "a__iter_v1", "a__ssa_v2", 17)),
    # on 41ebca4: a hazard (tasks 2 and 3, both writing y, unordered in the C++)
    "init_version_read_in_the_body_that_updates_the_carry": (CARRY_LOOP + '''\
                y__ssa_v3, t3 = pl.submit(self.step, x, y__iter_v1, deps=[arr__ssa_v1[0]])
                a__ssa_v2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(a__iter_v1, 0, t3)
                a__rv_v3, y__rv_v3 = pl.yield_(a__ssa_v2, y__ssa_v3)
''', "17:75", "'arr__ssa_v1' is read in the loop at line 16, whose next iteration reads it after the update of "
              "'a__iter_v1' into 'a__ssa_v2' at line 18"),
}

# name -> (body, values of c, per value of c {line of a task: the dependencies (trace task ids) of each
# task it submits, in order})
PRINTED_ACCEPTED = {
    "slot_read_into_a_scalar_before_the_update": ('''\
            s: pl.Scalar[pl.TASK_ID] = arr__ssa_v1[0]
''' + UPDATE_V2.replace("16", "17") + '''\
            y__ssa_v2, t3 = pl.submit(self.step, x, y__ssa_v1, deps=[s])
            z__ssa_v2, t4 = pl.submit(self.step, x, z__ssa_v1, deps=[arr__ssa_v2[0]])
''', ["1"], {"1": {18: [[0]], 19: [[1]]}}),
    "carry_updated_in_a_loop_and_its_result_read": (CARRY_LOOP + '''\
                y__ssa_v3, t3 = pl.submit(self.step, x, y__iter_v1, deps=[a__iter_v1[0]])
                a__ssa_v2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(a__iter_v1, 0, t3)
                a__rv_v3, y__rv_v3 = pl.yield_(a__ssa_v2, y__ssa_v3)
            z__ssa_v2, t4 = pl.submit(self.step, x, z__ssa_v1, deps=[a__rv_v3[0], t2])
''', ["1"], {"1": {17: [[0], [2]], 20: [[1, 3]]}}),
    "carry_updated_in_a_while_loop": ('''\
            for (k__iter_v1, a__iter_v1, y__iter_v1) in pl.while_(init_values=(0, arr__ssa_v1, y__ssa_v1)):
                pl.cond(k__iter_v1 < c)
                y__ssa_v3, t3 = pl.submit(self.step, x, y__iter_v1, deps=[a__iter_v1[0]])
                a__ssa_v2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(a__iter_v1, 0, t3)
                k__rv_v2, a__rv_v3, y__rv_v3 = pl.yield_(k__iter_v1 + 1, a__ssa_v2, y__ssa_v3)
            z__ssa_v2, t4 = pl.submit(self.step, x, z__ssa_v1, deps=[a__rv_v3[0], t2])
''', ["0", "2"], {"0": {21: [[0, 1]]}, "2": {18: [[0], [2]], 21: [[1, 3]]}}),
    "if_result_of_an_update_in_one_branch": ('''\
            if c > 0:
                arr__ssa_v2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(arr__ssa_v1, 1, t2)
                arr__phi_v3: pl.Array[2, pl.TASK_ID] = pl.yield_(arr__ssa_v2)
            else:
                arr__phi_v3: pl.Array[2, pl.TASK_ID] = pl.yield_(arr__ssa_v1)
            y__ssa_v2, t3 = pl.submit(self.step, x, y__ssa_v1, deps=[arr__phi_v3[0], arr__phi_v3[1]])
''', ["1", "0"], {"1": {21: [[0, 1]]}, "0": {21: [[0]]}}),
    # an update whose result nothing reads: remove_dead_values drops it, so the C++ writes no slot
    # and the old version keeps t1 (task 0) there, as the interpreter reads it; each refused on 299e181
    "old_version_slot_after_an_update_nothing_reads": (UPDATE_V2 + '''\
            y__ssa_v2, t3 = pl.submit(self.step, x, y__ssa_v1, deps=[arr__ssa_v1[0]])
''', ["1"], {"1": {17: [[0]]}}),
    "old_version_as_a_whole_array_dependency_after_an_update_nothing_reads": (UPDATE_V2 + '''\
            y__ssa_v2, t3 = pl.submit(self.step, x, y__ssa_v1, deps=[arr__ssa_v1])
''', ["1"], {"1": {17: [[0]]}}),
    "old_version_in_a_dummy_task_after_an_update_nothing_reads": (UPDATE_V2 + '''\
            d: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[arr__ssa_v1])
            y__ssa_v2, t3 = pl.submit(self.step, x, y__ssa_v1, deps=[d])
''', ["1"], {"1": {18: [[0]]}}),
    "old_version_as_an_init_value_after_an_update_nothing_reads": (UPDATE_V2 + '''\
            for i, (a__iter_v1, y__iter_v1) in pl.range(c, init_values=(arr__ssa_v1, y__ssa_v1)):
                y__ssa_v3, t3 = pl.submit(self.step, x, y__iter_v1, deps=[a__iter_v1[0]])
                a__ssa_v2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(a__iter_v1, 0, t3)
                a__rv_v3, y__rv_v3 = pl.yield_(a__ssa_v2, y__ssa_v3)
            z__ssa_v2, t4 = pl.submit(self.step, x, z__ssa_v1, deps=[a__rv_v3[0], t2])
''', ["0", "2"], {"0": {21: [[0, 1]]}, "2": {18: [[0], [2]], 21: [[1, 3]]}}),
    # the next iteration reads arr__ssa_v1 after the update of the one before: still t1 (task 0)
    "old_version_read_in_a_loop_that_updates_it_into_a_version_nothing_reads": ('''\
            for i, (y__iter_v1, p__iter_v1) in pl.range(c, init_values=(y__ssa_v1, t1)):
                y__ssa_v3, t3 = pl.submit(self.step, x, y__iter_v1, deps=[arr__ssa_v1[0], p__iter_v1])
                arr__ssa_v2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(arr__ssa_v1, 0, t3)
                y__rv_v3, p__rv_v3 = pl.yield_(y__ssa_v3, t3)
''', ["1", "3"], {"1": {17: [[0, 0]]}, "3": {17: [[0, 0], [0, 2], [0, 3]]}}),
    "carry_read_after_its_update_into_a_version_nothing_reads": ('''\
            for i, (a__iter_v1, y__iter_v1, p__iter_v1) in pl.range(c, init_values=(arr__ssa_v1, y__ssa_v1, t1)):
                a__ssa_v2: pl.Array[2, pl.TASK_ID] = pl.array.update_element(a__iter_v1, 0, t2)
                y__ssa_v3, t3 = pl.submit(self.step, x, y__iter_v1, deps=[a__iter_v1[0], p__iter_v1])
                a__rv_v3, y__rv_v3, p__rv_v3 = pl.yield_(a__iter_v1, y__ssa_v3, t3)
            z__ssa_v2, t4 = pl.submit(self.step, x, z__ssa_v1, deps=[a__rv_v3[0], t2])
''', ["0", "2"], {"0": {20: [[0, 1]]}, "2": {18: [[0, 0], [0, 2]], 20: [[0, 1]]}}),
}


def _printed(tmp_path, name: str, body: str):
    path = tmp_path / f"{name}.py"
    path.write_text(PRINTED_HEAD + body + TAIL)
    return path


@pytest.mark.parametrize("name", sorted(PRINTED_REFUSED))
def test_a_read_of_a_printed_array_version_after_its_update_is_refused_where_it_reads(tmp_path, name):
    body, where, message = PRINTED_REFUSED[name]
    path = _printed(tmp_path, name, body)
    result = run_cli("check", str(path), "--input", "printed-ir", "--set", "c=1")
    assert result.returncode == 1, result.stdout + result.stderr
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{path}:{where}: error: {message}"), result.stderr
    assert "Traceback" not in result.stderr
    assert "help: " in result.stderr


@pytest.mark.parametrize("name", sorted(PRINTED_ACCEPTED))
def test_printed_array_versions_read_before_the_next_update_are_checked_and_ordered(tmp_path, name):
    body, values, deps = PRINTED_ACCEPTED[name]
    path = _printed(tmp_path, name, body)
    for value in values:
        trace = tmp_path / f"{name}_{value}.json"
        result = run_cli("check", str(path), "--input", "printed-ir", "--set", f"c={value}", "--trace", str(trace))
        assert result.returncode == 0, result.stdout + result.stderr
        assert "traces agree" in result.stdout and result.stdout.endswith("\n0 hazards\n"), result.stdout
        tasks: dict[int, list[list[int]]] = {}
        for event in json.loads(trace.read_text())["events"]:
            if event["op"] == "task":
                tasks.setdefault(event["line"], []).append(sorted(event["deps"]))
        for line, expected in deps[value].items():
            assert tasks[line] == expected, (value, line, tasks)
