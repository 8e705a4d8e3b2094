"""The hazard walk's prework and its facts give what the plain definitions give.

``carried_allocations`` follows no allocation in a function that makes none; ``shared_in_loops``
finds the copies in loops in manual scopes in one walk of the function, not one walk of each
scope and of each loop in it; ``Access`` keeps its hash. Each shortcut is counted on the
benchmark's ``scopes`` shape (no allocation there) and compared with the full analysis on every
example, golden and found program and on random control-flow programs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import EXAMPLES, REPO, fuzz_budget, load_program
from program_gen import control_flow_programs
from test_loop_allocations_before_scopes import SHARED, program as shared_program
from test_middle_pass_shortcuts import counting

from nanopass.api import run_pipeline
from nanopass.languages.statements import defined_binders, iter_stmts
from nanopass.languages.terms import ArgDir, ScopeMode
from nanopass.loader import load_programs
from nanopass.passes import hazards
from nanopass.passes.kernels import kernel_table
from nanopass.passes.pipeline import PIPELINE
from nanopass.rewrite import PassContext
from nanopass.tools.bench import source_of

PROPERTY = settings(max_examples=fuzz_budget(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
CORPUS = sorted(
    [*EXAMPLES.glob("*.py"), *(REPO / "tests" / "golden").glob("*.py"), *(REPO / "tests" / "found").glob("*.py")]
)


def war_inputs(path: Path) -> list:
    """The programs ``order_write_after_read`` is given for each program in ``path`` that compiles
    that far."""
    names = [p.name for p in PIPELINE.passes]
    before = names[names.index("order_write_after_read") - 1]
    out = []
    for program in load_programs(str(path)):
        try:
            stages = run_pipeline(program, stop_after=before)
        except Exception:  # noqa: BLE001 - (a found program the compiler refuses: nothing to compare)
            continue
        out.append(stages[-1].tree)
    return out


def scopes_input(tmp_path, size: int = 16):
    path = tmp_path / "scopes.py"
    path.write_text(source_of("scopes", size))
    return war_inputs(path)[0]


def walk_result(program) -> tuple:
    """What ``find_hazards`` gives on ``program``'s function: the sites, the chained sites and the
    pairs, writes tracked and not."""
    func, kernels = program.orch, kernel_table(program)
    out = []
    for track_writes in (True, False):
        found = hazards.find_hazards(func, kernels, hazards.untracked_roots(func), track_writes=track_writes)
        out.append((len(found.sites), found.chained, found.pairs))
    return tuple(out)


def war_output(program):
    pass_cls = PIPELINE.passes[[p.name for p in PIPELINE.passes].index("order_write_after_read")]
    return pass_cls(PassContext()).run(program)


def test_a_function_without_allocations_follows_none(tmp_path, monkeypatch):
    held = counting(monkeypatch, hazards, "held_allocations")
    program = scopes_input(tmp_path)
    war_output(program)
    assert held == []
    assert hazards.carried_allocations(program.orch, kernel_table(program)) == frozenset()


def check_same_with_allocations_followed(program) -> None:
    fast = (walk_result(program), war_output(program))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hazards, "makes_allocations", lambda func, kernels: True)
        full = (walk_result(program), war_output(program))
    assert fast == full


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_following_allocations_changes_nothing(path):
    for program in war_inputs(path):
        check_same_with_allocations_followed(program)


@PROPERTY
@given(control_flow_programs())
def test_following_allocations_changes_nothing_on_random_programs(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    for program in war_inputs(path):
        check_same_with_allocations_followed(program)


def shared_by_scope(func) -> frozenset:
    """``shared_in_loops`` as its docstring defines it: each manual scope and each loop in it in
    turn, a walk of each."""
    out: set[str] = set()
    for scope in iter_stmts(func.body):
        if scope._production not in ("Scope", "CompilerScope") or scope.mode is not ScopeMode.manual:
            continue
        inside = {b.name for s in iter_stmts(scope.body) for b in defined_binders(s)}
        for loop in iter_stmts(scope.body):
            if loop._production in ("For", "While"):
                out.update(
                    s.value.name for s in iter_stmts(loop.body)
                    if s._production == "Let" and s.value._production == "Var" and s.value.name not in inside
                )
    lets = {s.var.name: s.value for s in iter_stmts(func.body) if s._production == "Let"}
    roots = set()
    for name in out:
        while name in lets and lets[name]._production == "Var":
            name = lets[name].name
        if name in lets and lets[name]._production == "CreateTensor":
            roots.add(name)
    return frozenset(roots)


def test_one_walk_finds_the_buffers_shared_in_loops(tmp_path):
    paths = list(CORPUS)
    for name, case in SHARED.items():  # (loop allocations placed before their blocks)
        paths.append(path := tmp_path / f"{name}.py")
        path.write_text(shared_program(*case))
    found = 0
    for path in paths:
        for program in war_inputs(path):
            shared = hazards.shared_in_loops(program.orch)
            assert shared == shared_by_scope(program.orch), path.stem
            found += bool(shared)
    assert found >= 3  # (some programs have such buffers: not only empty sets are compared)


@PROPERTY
@given(control_flow_programs())
def test_one_walk_finds_the_buffers_shared_in_loops_of_random_programs(tmp_path_factory, source):
    (path := tmp_path_factory.mktemp("p") / "generated.py").write_text(source)
    for program in war_inputs(path):
        assert hazards.shared_in_loops(program.orch) == shared_by_scope(program.orch)


def test_a_fact_hashes_as_its_key_and_equal_facts_hash_alike():
    fact = hazards.Access(3, True, "y", hazards.FULL, ArgDir.InOut, None, covers=frozenset({"t"}))
    same = hazards.Access(3, True, "y", hazards.FULL, ArgDir.InOut, None, covers=frozenset({"t"}))
    assert fact == same and hash(fact) == hash(same) == hash(fact._key) and len({fact, same}) == 1
    for changed in (fact.older(), fact.ended(), fact.covered(frozenset()), fact.retagged(frozenset({1}))):
        assert changed != fact and hash(changed) == hash(changed._key)
        assert changed.older().ended() == changed.ended().older()
        assert hash(changed.older().ended()) == hash(changed.ended().older())
