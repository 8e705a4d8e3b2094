"""util.renamed builds its nodes unchecked (``make_trusted``): the trees remove_dead_values makes
with it (the per-iteration iter_args of dead pl.parallel TaskId results renamed to their inits)
are the trees checked construction makes (inside ``trusted_checked()`` every ``make_trusted``
is ``make``), and a subtree that reads none of the names is returned as it is."""

from __future__ import annotations

from conftest import FOUND, bench_file, load_program

from nanopass.api import run_pipeline
from nanopass.language import trusted_checked
from nanopass.languages.statements import iter_stmts
from nanopass.passes.util import renamed

CLASS6 = FOUND / "class6_taskid_through_two_parallel_loops.py"


def dead_values_output(path):
    return run_pipeline(load_program(path))["remove_dead_values"].tree


def test_renamed_trees_are_those_checked_construction_makes(tmp_path):
    for path in (bench_file(tmp_path, "scopes", 8), CLASS6):
        fast = dead_values_output(path)
        with trusted_checked():
            checked = dead_values_output(path)
        assert fast == checked, path.name
        before = run_pipeline(load_program(path))["split_joins_by_iteration"].tree
        assert fast != before, path.name  # (the pass renamed something)


def test_renamed_returns_what_reads_none_of_the_names_as_it_is(tmp_path):
    body = dead_values_output(bench_file(tmp_path, "scopes", 8)).orch.body
    tasks = [s for s in iter_stmts(body) if s._production == "Task"]
    assert tasks
    for task in tasks:
        assert renamed(task, {"no_such_name": "x"}) is task
        name = task.deps[0].value.name  # (each task's first dependency: the init it now reads)
        out = renamed(task, {name: "other"})
        assert out is not task and out.deps[0].value.name == "other"
        assert out.args is task.args and out.deps[1:] == task.deps[1:]
