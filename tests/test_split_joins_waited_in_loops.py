"""``split_joins_by_iteration`` returns its input at once when every join is waited on in a loop by
a statement other than its barriers (``waited_in_loops``): no join is then declared and waited
on outside every loop, as a split needs (``used_outside_loops``). The scopes shape is such a
program (each scope's loop joins its task's runs in a cell the next scope's task waits on in its
loop); a join waited on after its loop, and the manual random programs of seeds 6, 16 and 31
(``nanopass.tools.gen_programs``), are split. The test compares the condition with its definition
on every input, and the pass's output with the shortcut and with it forced off (and forced on,
where a join is split: it must then differ, so the comparison can fail).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import corpus_tests, counting, pass_input, pass_inputs, random_file, run_both_ways, running
from test_scope_pass_shortcuts import split_join_program
from test_middle_pass_shortcuts import compile_bench

from nanopass.passes import split_joins_by_iteration as split_joins
from nanopass.passes.cells import WITH_DEPS, join_cells
from nanopass.passes.drop_latest_runs_from_joins import DropLatestRunsFromJoins
from nanopass.passes.util import iter_stmts

SPLIT_SEEDS = (6, 16, 31)  # manual random programs with a join that is split
SEEDS = tuple(range(40))


def waited_in_loops_by_definition(func, joins) -> bool:
    """Whether ``used_outside_loops`` fails for every join, the uses found as the pass finds them."""
    uses: dict[str, list] = {}
    for s in iter_stmts(func.body):
        if s._production == "CellDecl":
            uses.setdefault(s.cell, []).append(s)
        elif s._production in WITH_DEPS:
            for d in s.deps:
                if d._production == "CellDep" and s not in uses.setdefault(d.cell, []):
                    uses[d.cell].append(s)
    outside = split_joins.outside_loops(func.body)
    return all(not split_joins.used_outside_loops(joined, uses.get(cell, ()), outside) for cell, joined in joins.items())


def check(path: Path) -> bool:
    """``check_input`` for each program of ``path`` that compiles that far; whether a join was split."""
    return any([check_input(given) for given in pass_inputs(path, "split_joins_by_iteration")])


def check_input(given) -> bool:
    """The condition against its definition, and the output both ways; whether a join was split."""
    joins = join_cells(given.orch)
    if joins:
        assert split_joins.waited_in_loops(given.orch.body, joins) == waited_in_loops_by_definition(given.orch, joins)
    run = running(split_joins.SplitJoinsByIteration)
    fast, full = run_both_ways(run, given, [(split_joins, "waited_in_loops", lambda body, joins: False)])
    assert fast == full
    return full != given


def test_the_scopes_shape_scans_no_use(tmp_path, monkeypatch):
    # (the shape as the benchmark compiles it: at its sizes the lean analysis gives up before
    # drop_latest_runs_from_joins folds a scope loop's join; at this size it would fold it)
    monkeypatch.setattr(DropLatestRunsFromJoins, "fold_after_loop", lambda self, *args: None)
    asked = counting(monkeypatch, split_joins, "waited_in_loops")
    placed = counting(monkeypatch, split_joins, "places")
    outside = counting(monkeypatch, split_joins, "outside_loops")
    compile_bench(tmp_path, "scopes", 16)
    assert len(asked) == 1 and placed == [] and outside == []


def test_a_join_waited_on_after_its_loop_is_split(tmp_path, monkeypatch):
    path = split_join_program(tmp_path)
    assert check(path)
    given = pass_input(path, "split_joins_by_iteration")
    fast, wrong = run_both_ways(running(split_joins.SplitJoinsByIteration), given,
                                [(split_joins, "waited_in_loops", lambda body, joins: True)])
    assert wrong == given != fast  # (a shortcut taken where a join is split changes the output)


@pytest.mark.parametrize("seed", SPLIT_SEEDS)
def test_random_programs_with_a_split_join(tmp_path, seed):
    assert check(random_file(tmp_path, seed, manual=True))


test_programs, test_shapes = corpus_tests(check)


def test_random_manual_programs(tmp_path):
    split = [seed for seed in SEEDS if check(random_file(tmp_path, seed, manual=True))]
    assert set(SPLIT_SEEDS) <= set(split)
