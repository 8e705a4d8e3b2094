"""The passes around manual scopes that skip an analysis their input cannot need give what the full
analysis gives.

``expand_manual_phase_fence`` lists the function's binders (looking for TaskId arrays, which its
fences are for) only when a parameter is a TaskId array or a ``pl.array`` makes one
(``makes_task_id_arrays``); ``split_joins_by_iteration`` finds the statements' places only for the
joins declared and waited on outside every loop (``used_outside_loops``);
``insert_parallel_carry_joins`` finds how many ids each TaskId value holds (``TidShapes``) only
when a ``pl.parallel`` loop's body yields for a TaskId carry something other than the TaskId of
one of its own tasks or dummies (``yields_fresh_ids``); ``drop_unwaited_dummies`` reads the names
of the effects' dependencies without a walk of each (``waited_by_effects``, compared with its plain
definition); ``hoist_scope_escapes`` finds the TaskId array carries only when a TaskId read after
the scope that produces it is met (``carried_arrays``). Each test counts the skipped work on a benchmark shape that needs
none, checks the condition against the full search, and compares the pass's output with the
output of the pass made to run the full analysis, on every example and golden program and on
random control-flow programs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import (EXAMPLES_AND_GOLDEN, FOUND, GOLDEN, bench_file, compiled_stages, counting, fuzz_budget, load_program,
                      pass_input, run_both_ways, running)
from program_gen import control_flow_programs
from test_lean_edges import JOIN_WAITERS, READERS_IN_A_LOOP_OF_THREE
from test_middle_pass_shortcuts import compile_bench

from nanopass.api import run_pipeline
from nanopass.languages.terms import DType
from nanopass.passes import classify_iter_arg_carry, insert_parallel_carry_joins as carry_joins
from nanopass.passes import drop_unwaited_dummies, hoist_scope_escapes
from nanopass.passes import expand_manual_phase_fence as phase_fence
from nanopass.passes.util import iter_stmts, var_reads
from nanopass.passes import split_joins_by_iteration as split_joins
from nanopass.passes.pipeline import PIPELINE
from nanopass.rewrite import PassContext

PROPERTY = settings(max_examples=fuzz_budget(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
CARRY_JOINS = [FOUND / "class7_parallel_iteration_yielding_a_nested_parallel_loops_ids.py",
               FOUND / "class7_parallel_iteration_yielding_a_nested_parallel_loops_ids_through_an_if.py"]


def test_scopes_without_task_id_arrays_list_no_binders(tmp_path, monkeypatch):
    listed = counting(monkeypatch, phase_fence, "_binders")
    asked = counting(monkeypatch, phase_fence, "makes_task_id_arrays")
    compile_bench(tmp_path, "scopes", 16)
    assert len(asked) == 1 and listed == []


def test_a_task_id_array_lists_the_binders(tmp_path, monkeypatch):
    listed = counting(monkeypatch, phase_fence, "_binders")
    run_pipeline(load_program(GOLDEN / "phase_fence.py"))
    assert len(listed) == 1


def test_joins_waited_on_in_loops_place_no_statement(tmp_path, monkeypatch):
    # scopes: each scope's loop joins its task's runs in a cell the next scope's task, in a loop,
    # waits on
    placed = counting(monkeypatch, split_joins, "places")
    asked = counting(monkeypatch, split_joins, "used_outside_loops")
    compile_bench(tmp_path, "scopes", 16)
    assert asked == [] and placed == []  # (waited_in_loops answers first: tests/test_split_joins_waited_in_loops.py)


def split_join_program(tmp_path) -> Path:
    """A join of a loop of three runs that a writer after the loop waits on (it is split)."""
    path = tmp_path / "split.py"
    path.write_text(JOIN_WAITERS.replace("BODY", READERS_IN_A_LOOP_OF_THREE))
    return path


def test_a_join_waited_on_after_its_loop_places_the_statements(tmp_path, monkeypatch):
    placed = counting(monkeypatch, split_joins, "places")
    stages = run_pipeline(load_program(split_join_program(tmp_path)))
    assert len(placed) == 1
    i = PIPELINE.names().index("split_joins_by_iteration")
    assert stages[i + 1].tree != stages[i].tree  # (it was split)
    monkeypatch.undo()
    check_split_joins(split_join_program(tmp_path))


def check_both_ways(path: Path, pass_cls: type, forced_off: list) -> None:
    """``pass_cls`` gives the same output on its input in the compile of ``path`` with its shortcut
    and with it ``forced_off`` (patches)."""
    fast, full = run_both_ways(running(pass_cls), pass_input(path, pass_cls.name), forced_off)
    assert fast == full


def check_split_joins(path: Path) -> None:
    check_both_ways(path, split_joins.SplitJoinsByIteration,
                    [(split_joins, "used_outside_loops", lambda joined, uses, outside: True)])


def test_loops_yielding_their_own_tasks_ids_find_no_shapes(tmp_path, monkeypatch):
    # scopes: each pl.parallel loop yields its task's TaskId for its carry
    before = pass_input(bench_file(tmp_path, "scopes", 16), "insert_parallel_carry_joins")
    shapes = counting(monkeypatch, classify_iter_arg_carry.TidShapes, "run")
    asked = counting(monkeypatch, carry_joins, "yields_fresh_ids")
    assert carry_joins.InsertParallelCarryJoins(PassContext()).run(before) is before
    assert len(asked) == 4 and shapes == []


@pytest.mark.parametrize("path", CARRY_JOINS, ids=lambda p: p.stem)
def test_a_loop_yielding_a_nested_loops_ids_finds_the_shapes(path, monkeypatch):
    before = pass_input(path, "insert_parallel_carry_joins")
    shapes = counting(monkeypatch, classify_iter_arg_carry.TidShapes, "run")
    after = carry_joins.InsertParallelCarryJoins(PassContext()).run(before)
    assert shapes and after != before  # (a barrier joins the nested loop's ids)
    monkeypatch.undo()
    check_carry_joins(path)
    check_waited_by_effects(path)


def check_carry_joins(path: Path) -> None:
    check_both_ways(path, carry_joins.InsertParallelCarryJoins, [(carry_joins, "yields_fresh_ids", lambda loop: False)])


def test_no_task_id_read_after_its_scope_finds_no_array_carries(tmp_path, monkeypatch):
    found = counting(monkeypatch, hoist_scope_escapes, "carry_arrays")
    compile_bench(tmp_path, "scopes", 16)
    assert found == []


def test_an_array_carry_read_after_its_scope_is_found(monkeypatch):
    # (its golden C++ declares the array before the scope: tests/golden/array_carry_across_scope)
    found = counting(monkeypatch, hoist_scope_escapes, "carry_arrays")
    run_pipeline(load_program(GOLDEN / "array_carry_across_scope.py"))
    assert len(found) == 1


def waited_by_definition(stmts, dummies) -> bool:
    """``drop_unwaited_dummies.waited_by_effects`` as its docstring defines it: every dummy is read
    by a task's or host fence's dependencies, or is the value a ``CellSet`` stores."""
    read: set[str] = set()
    for s in stmts:
        if s._production in ("Task", "HostFence"):
            read.update(var_reads(s.deps))
        elif s._production == "CellSet" and s.value._production == "Var":
            read.add(s.value.name)
    return all(d.var.name in read for d in dummies)


def check_waited_by_effects(path: Path) -> None:
    """On every stage of the directed language, with its dummies and with each dummy alone."""
    compared = 0
    for stage in compiled_stages(path):
        if stage.language.name != "directed":
            continue
        stmts = list(iter_stmts(stage.tree.orch.body))
        dummies = [s for s in stmts if s._production == "Dummy"]
        for some in [dummies] + [[d] for d in dummies]:
            assert drop_unwaited_dummies.waited_by_effects(stmts, some) == waited_by_definition(stmts, some)
            compared += 1
    assert compared


def check_phase_fence(path: Path) -> None:
    func = pass_input(path, "expand_manual_phase_fence").orch
    arrays = [b for b in phase_fence._binders(func)
              if b.type._production == "ArrayType" and b.type.dtype is DType.TASK_ID]
    assert not arrays or phase_fence.makes_task_id_arrays(func)  # the condition misses no array
    check_both_ways(path, phase_fence.ExpandManualPhaseFence, [(phase_fence, "makes_task_id_arrays", lambda func: True)])


def check_every_shortcut(path: Path) -> None:
    for check in (check_phase_fence, check_split_joins, check_carry_joins, check_waited_by_effects):
        check(path)


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=lambda p: p.stem)
def test_programs(path: Path):
    check_every_shortcut(path)


@PROPERTY
@given(control_flow_programs())
def test_random_programs(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    check_every_shortcut(path)
