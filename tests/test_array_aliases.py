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
    "init_value_inside_an_enclosing_loop_bound_again_after": ('''\
            for j in pl.range(2):
                for i, (acc,) in pl.range(1, init_values=(tids,)):
                    y, t = pl.submit(self.step, x, y, deps=[acc[0]])
                    acc[0] = t
                    tids = pl.yield_(acc)
            z, u = pl.submit(self.step, x, z, deps=[tids[0], second])
''', ["1"], {24: [1, 3]}),
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
