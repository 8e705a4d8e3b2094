"""Passes around join cells that skip an analysis their input cannot need give what the full
analysis gives.

``drop_unwaited_dummies`` makes no liveness when every dummy is read directly by an effect (a
task's or host fence's dependency, a ``CellSet``); ``split_joins_by_iteration`` reads the
statements' names only once a join's barriers and waiters are placed as a split needs;
``insert_parallel_carry_joins`` collects the names a barrier may not take only when it makes a
barrier, the loops' results only when a carry may hold several ids, and the per-iteration loops
only when a loop yields a TaskId not its body's own (``_may_join``); ``hoist_scope_escapes``
numbers the statements without entering nodes that read no name; ``runtime_order`` gives up
before it finds the cells when the tasks no cell names already exceed its budget, and
``drop_latest_runs_from_joins`` and ``drop_edges_after_first_run`` then look for no task to track
(``gives_up``). Each test counts the
skipped walk on the benchmark's ``scopes`` shape (every dummy there is a join barrier stored in
its cell, and every join is waited on in a loop); every stage of the pipeline is the same with
each shortcut forced off, and the numbering the same entering every node, on every example, the
scopes shape and random programs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import EXAMPLES, bench_file, counting, fuzz_budget, load_program, running, stage_input
from program_gen import control_flow_programs

from nanopass.api import run_pipeline
from nanopass.passes import (
    drop_edges_after_first_run,
    drop_latest_runs_from_joins,
    drop_unwaited_dummies,
    insert_parallel_carry_joins,
    reads,
    remove_dead_values,
    runtime_order,
    split_joins_by_iteration,
)

PROPERTY = settings(max_examples=fuzz_budget(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def compile_scopes(tmp_path, size: int = 16):
    return run_pipeline(load_program(bench_file(tmp_path, "scopes", size)))


def test_dummies_every_effect_reads_make_no_liveness(tmp_path, monkeypatch):
    stages = compile_scopes(tmp_path)
    given_tree = stage_input(stages, "drop_unwaited_dummies")
    assert any(s._production == "Dummy" for s in _stmts(given_tree))  # (the joins' barriers)
    calls: list = []
    liveness = remove_dead_values.RemoveDeadValues.liveness

    def counted(body, dummies=False):
        calls.append(dummies)
        return liveness(body, dummies)

    monkeypatch.setattr(remove_dead_values.RemoveDeadValues, "liveness", staticmethod(counted))
    out = running(drop_unwaited_dummies.DropUnwaitedDummies)(given_tree)
    assert out is given_tree
    assert True not in calls


def test_joins_waited_on_in_loops_read_no_names(tmp_path, monkeypatch):
    reads = counting(monkeypatch, split_joins_by_iteration, "var_reads")
    stages = compile_scopes(tmp_path)
    assert any(s._production == "CellSet" for s in _stmts(stage_input(stages, "split_joins_by_iteration")))
    assert reads == []


def test_carries_of_one_id_collect_no_names(tmp_path, monkeypatch):
    binders = counting(monkeypatch, insert_parallel_carry_joins, "binders_in_order")
    compile_scopes(tmp_path)
    assert binders == []


def test_carries_of_their_own_ids_look_for_no_per_iteration_loop(tmp_path, monkeypatch):
    # every pl.parallel loop of the scopes shape yields its own task's TaskId (``_may_join``)
    loops = counting(monkeypatch, insert_parallel_carry_joins, "per_iteration_loops")
    stages = compile_scopes(tmp_path)
    assert any(s._production == "For" and s.iters for s in _stmts(stage_input(stages, "insert_parallel_carry_joins")))
    assert loops == []


def numbering(tree, reads_nothing) -> dict:
    """The walk of reads ``hoist_scope_escapes`` numbers ``tree`` by (``reads.read_walk``: the
    place each name is last read at), entering every node but those of ``reads_nothing``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reads, "READS_NOTHING", reads_nothing)
        return reads.read_walk(tree.orch.body).last


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")) + ["scopes"], ids=lambda p: getattr(p, "stem", p))
def test_the_numbering_skips_only_nodes_that_read_no_name(path, tmp_path):
    # binders, carry plans and TaskId sources hold no name a statement reads: the numbering that
    # enters them finds the same last reads
    if path == "scopes":
        path = bench_file(tmp_path, "scopes", 16)
    stages = run_pipeline(load_program(path))
    tree = stage_input(stages, "hoist_scope_escapes")
    entering = reads.TYPE_PRODUCTIONS | {"Int"}
    assert numbering(tree, reads.READS_NOTHING) == numbering(tree, entering)


def test_too_many_tasks_named_by_their_binders_give_up_before_the_cells_are_found(tmp_path, monkeypatch):
    # each join barrier of the scopes shape names its task's TaskId binder: at N = 1000 those
    # 250 tasks times the statements exceed the budget
    cells = counting(monkeypatch, runtime_order, "latest_run_cells")
    walks = counting(monkeypatch, runtime_order, "_Walker")
    compile_scopes(tmp_path, 1000)
    assert cells == [] and walks == []


def test_lean_passes_whose_analysis_gives_up_whatever_it_tracks_look_for_no_task_to_track(tmp_path, monkeypatch):
    # at N = 1000 the tasks the scopes shape names by their binders alone exceed the budget
    # (``runtime_order.gives_up``): drop_latest_runs_from_joins reads no cell's waiters and
    # drop_edges_after_first_run finds no task in a loop, and what the analysis reads whatever it
    # tracks is read once per program it is asked of (``_prelude``)
    readers = counting(monkeypatch, drop_latest_runs_from_joins, "cell_readers")
    looped = counting(monkeypatch, drop_edges_after_first_run, "_tasks_in_loops")
    preludes = counting(monkeypatch, runtime_order, "_read_prelude")
    stages = compile_scopes(tmp_path, 1000)
    assert readers == [] and looped == []
    assert preludes and len({id(args[0]) for args in preludes}) == len(preludes)
    assert runtime_order.gives_up(stage_input(stages, "drop_latest_runs_from_joins"))


def test_a_lean_pass_whose_analysis_does_not_give_up_looks_for_tasks_to_track(tmp_path, monkeypatch):
    readers = counting(monkeypatch, drop_latest_runs_from_joins, "cell_readers")
    stages = compile_scopes(tmp_path, 16)
    assert len(readers) == 1
    assert not runtime_order.gives_up(stage_input(stages, "drop_latest_runs_from_joins"))


def stage_trees(path: Path, patches) -> list:
    """Every stage's tree of the pipeline on ``path`` with ``patches`` ((module, name, value)) made."""
    with pytest.MonkeyPatch.context() as patch:
        for module, name, value in patches:
            patch.setattr(module, name, value)
        return [stage.tree for stage in run_pipeline(load_program(path))]


def check_same_stages_with_shortcuts_off(path: Path) -> None:
    """Every stage is the same with each shortcut forced off: ``drop_unwaited_dummies`` makes the
    liveness, ``runtime_order`` finds the cells before it gives up and the lean passes look for
    the tasks they would track before they ask it (``gives_up``; at budgets that make it give up
    on some programs and on none)."""
    assert stage_trees(path, []) == stage_trees(path, [(drop_unwaited_dummies, "waited_by_effects", lambda s, d: False),
                                                       (insert_parallel_carry_joins, "_may_join", lambda body: True)])
    for budget, per_edge in ((20, 0), (200, 0), (runtime_order.BUDGET, runtime_order.PER_EDGE)):
        limits = [(runtime_order, "BUDGET", budget), (runtime_order, "PER_EDGE", per_edge)]
        fast = stage_trees(path, limits)
        full = stage_trees(path, limits + [(runtime_order, "gives_up_before_cells", lambda relevant, stmts, limit: False)])
        assert fast == full, budget


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")) + ["scopes"], ids=lambda p: getattr(p, "stem", p))
def test_examples_with_shortcuts_off(path, tmp_path):
    if path == "scopes":
        path = bench_file(tmp_path, "scopes", 16)
    check_same_stages_with_shortcuts_off(path)


@PROPERTY
@given(control_flow_programs())
def test_random_programs_with_shortcuts_off(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    check_same_stages_with_shortcuts_off(path)


def _stmts(program):
    from nanopass.passes.util import iter_stmts

    return list(iter_stmts(program.orch.body))
