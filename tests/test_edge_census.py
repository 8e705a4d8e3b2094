"""``edge_census.body_has``: the passes of the directed language that change a program only where
it has a compiler edge, a cell a task waits on, a manual scope or a user edge on a plain call ask
one census of the body, kept for the passes after that receive the same body.

``test_the_idle_passes_walk_once`` fails without the census: on the bench shapes that have none
of those (nested, branches, mixed) each of the seven passes walks the body to return it
unchanged (seven walks; with the census, check_manual_deps_on_submit_only's census is the one).
The both-ways tests show that each pass gives the same output with the census's answer forced to
"there is one" (each pass then looks for its work as before) on every example, golden program
and bench shape; ``test_a_stopped_walk_keeps_no_census`` that a walk stopped at the fact asked
keeps nothing another fact could be read from.
"""

from __future__ import annotations

import sys

import pytest

from conftest import bench_file, corpus_tests, pass_input, pass_inputs, running

from nanopass.api import needed_by_result, result_from_stages, run_pipeline
from nanopass.languages.statements import iter_stmts, reusing_walks
from nanopass.loader import load_programs
from nanopass.passes import edge_census
from nanopass.passes.check_manual_deps_on_submit_only import CheckManualDepsOnSubmitOnly
from nanopass.passes.clear_cells_after_waiters import ClearCellsAfterWaiters
from nanopass.passes.clear_edges_where_implied import ClearEdgesWhereImplied
from nanopass.passes.drop_edges_after_first_run import DropEdgesAfterFirstRun
from nanopass.passes.drop_implied_dependencies import DropImpliedDependencies
from nanopass.passes.expand_manual_phase_fence import ExpandManualPhaseFence
from nanopass.passes.merge_cells_into_chains import MergeCellsIntoChains

# in pipeline order: the first makes the census, the others find it kept
ASKERS = [CheckManualDepsOnSubmitOnly, ExpandManualPhaseFence, DropImpliedDependencies, MergeCellsIntoChains,
          DropEdgesAfterFirstRun, ClearCellsAfterWaiters, ClearEdgesWhereImplied]


def walks_by_pass(monkeypatch) -> dict[str, int]:
    """pass name -> the walks of the body (``iter_stmts`` calls, from any module of the passes)
    made while the pass of ``ASKERS`` runs."""
    walks = {cls.name: 0 for cls in ASKERS}
    running_now: list[str] = []

    def counted(stmts, real=iter_stmts):
        if running_now:
            walks[running_now[-1]] += 1
        return real(stmts)

    for name, module in list(sys.modules.items()):
        if name.startswith("nanopass.passes.") and getattr(module, "iter_stmts", None) is iter_stmts:
            monkeypatch.setattr(module, "iter_stmts", counted)
    for cls in ASKERS:
        def run(self, program, real=cls.run, name=cls.name):
            running_now.append(name)
            try:
                return real(self, program)
            finally:
                running_now.pop()

        monkeypatch.setattr(cls, "run", run)
    return walks


def compile_cpp(path) -> str:
    (program,) = load_programs(str(path))
    return result_from_stages(run_pipeline(program, keep_tree=needed_by_result)).code


@pytest.mark.parametrize("shape", ["nested", "branches", "mixed"])
def test_the_idle_passes_walk_once(tmp_path, monkeypatch, shape):
    path = bench_file(tmp_path, shape, 24)
    plain = compile_cpp(path)
    walks = walks_by_pass(monkeypatch)
    assert compile_cpp(path) == plain
    assert walks == {cls.name: int(cls is CheckManualDepsOnSubmitOnly) for cls in ASKERS}


def census_forced_on(monkeypatch) -> None:
    """Every asker's ``body_has`` answers True: each pass looks for its work as without the census."""
    for cls in ASKERS:
        monkeypatch.setattr(sys.modules[cls.__module__], "body_has", lambda body, fact: True)


def same_both_ways(path) -> None:
    for cls in ASKERS:
        run = running(cls)
        for given in pass_inputs(path, cls.name):
            fast = run(given)
            with pytest.MonkeyPatch.context() as patch:
                census_forced_on(patch)
                full = run(given)
            assert fast == full, cls.name


test_same_both_ways_on_programs, test_same_both_ways_on_shapes = corpus_tests(same_both_ways)


def full_census(body) -> dict[str, bool]:
    """The census's facts, each by its own look at every statement (what the passes asked before)."""
    stmts = list(iter_stmts(body))
    waiters = [s for s in stmts if s._production in ("Task", "HostFence")]

    def compiler(dep):
        return dep._production == "CellDep" or (dep._production == "DerivedDep" and dep.value._production == "Var")

    return {
        "manual_scope": any(s._production in ("Scope", "CompilerScope") and s.mode.name == "manual" for s in stmts),
        "user_edge_on_plain_task": any(s._production == "Task" and s.tid is None
                                       and any(d._production in ("DepVar", "DepItem") for d in s.deps) for s in stmts),
        "compiler_edge": any(compiler(d) for s in waiters for d in s.deps),
        "two_compiler_edges": any(s._production == "Task" and sum(map(compiler, s.deps)) > 1 for s in stmts),
        "cell_waiting_task": any(s._production == "Task" and any(d._production == "CellDep" for d in s.deps)
                                 for s in stmts),
        "derived_or_cell_edge": any(d._production in ("DerivedDep", "CellDep") for s in waiters for d in s.deps),
    }


def test_a_stopped_walk_keeps_no_census(tmp_path):
    """The scopes shape after order_write_after_read has a manual scope before its first edge: a
    walk asked for the scope stops there, and each fact asked after is the whole body's."""
    body = pass_input(bench_file(tmp_path, "scopes", 12), "expand_manual_phase_fence").orch.body
    facts = full_census(body)
    assert facts["manual_scope"] and facts["compiler_edge"] and not facts["user_edge_on_plain_task"]
    for first in facts:
        with reusing_walks():
            assert edge_census.body_has(body, first) is facts[first]
            for fact, holds in facts.items():
                assert edge_census.body_has(body, fact) is holds, (first, fact)


def test_every_fact_of_every_program(tmp_path):
    """Each answer is the fact's own look, on the inputs of the first and the second asker (before
    and after order_write_after_read adds edges) of the scopes and reuses shapes, two examples and
    a golden program whose writes in branches wait for two reads each."""
    from conftest import EXAMPLES, GOLDEN

    paths = [bench_file(tmp_path, "scopes", 12), bench_file(tmp_path, "reuses", 12),
             EXAMPLES / "manual_phases.py", EXAMPLES / "group_mixed.py", GOLDEN / "war_branches.py"]
    seen = {fact: set() for fact in edge_census.EdgeCensus._fields}
    for path in paths:
        for asker in ("check_manual_deps_on_submit_only", "expand_manual_phase_fence"):
            for given in pass_inputs(path, asker):
                body = given.orch.body
                for fact, holds in full_census(body).items():
                    assert edge_census.body_has(body, fact) is holds, (path.name, asker, fact)
                    seen[fact].add(holds)
    assert all(values == {True, False} for fact, values in seen.items() if fact != "user_edge_on_plain_task"), seen
