"""Two shortcuts of order_write_after_read's walk, tested both ways on every example, golden and
found program, the benchmark's shapes and random programs of three generators (manual scopes
among them); each is taken where it should be, and each comparison can fail.

- ``hazards.ONCE_OUTSIDE_LOOPS``: ``find_hazards`` keeps no site or facts for another visit of a
  task outside every loop (it is met once), nor renews the root of a create outside every loop
  (it runs before every access of its root: no fact of the root is live). The sites, the chained
  sites, the pairs and the pass's output and notes are the same both ways.
- Outside every MANUAL scope (a compiler's too: ``Prework.any_manual``) the pass does not look for
  buffers shared in loops (``hazards.shared_in_loops``, which finds them only in a loop in a MANUAL
  scope): there it finds none.
"""

from __future__ import annotations

import pytest

from conftest import CORPUS, counting
from test_hazard_shortcuts import walk_result, war_inputs, war_output
from test_runtime_order_state import attack_programs
from test_war_walk_shortcuts import SHAPES, random_sources, scopes_sources

from nanopass.passes import hazards
from nanopass.passes import order_write_after_read as war
from nanopass.passes.kernels import kernel_table
from nanopass.rewrite import PassContext
from nanopass.tools.bench import source_of


def sites_of(program) -> list:
    func, kernels = program.orch, kernel_table(program)
    found = hazards.find_hazards(func, kernels, hazards.untracked_roots(func))
    return [(s.index, id(s.task), s.path, s.loops, s.scope, s.position, s.auto_scope, s.host) for s in found.sites]


def analysed(program, monkeypatch, on: bool):
    monkeypatch.setattr(hazards, "ONCE_OUTSIDE_LOOPS", on)
    ctx = PassContext()
    out = war.OrderWriteAfterRead(ctx).run(program)
    return walk_result(program), sites_of(program), out, [(n.kind, n.message) for n in ctx.notes]


def check(path, monkeypatch) -> int:
    programs = war_inputs(path)
    for program in programs:
        assert analysed(program, monkeypatch, True) == analysed(program, monkeypatch, False)
        func = program.orch
        store = hazards.storage_map(func, kernel_table(program))
        if not hazards.prework(func, store).any_manual:
            assert hazards.shared_in_loops(func) == frozenset()
    return len(programs)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_the_shortcuts_change_nothing(path, monkeypatch):
    check(path, monkeypatch)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_shortcuts_change_nothing_on_the_shapes(shape, tmp_path, monkeypatch):
    (path := tmp_path / f"{shape}.py").write_text(source_of(shape, 48))
    assert check(path, monkeypatch) == 1


@pytest.mark.parametrize("index", range(30))
def test_the_shortcuts_change_nothing_on_random_programs(index, tmp_path, monkeypatch):
    (path := tmp_path / "generated.py").write_text(random_sources()[index])
    check(path, monkeypatch)


@pytest.mark.parametrize("index", range(12))
def test_the_shortcuts_change_nothing_on_the_testers_programs(index, tmp_path, monkeypatch):
    (path := tmp_path / "generated.py").write_text(attack_programs()[index])
    check(path, monkeypatch)


@pytest.mark.parametrize("index", range(40))
def test_the_shortcuts_change_nothing_on_the_scopes_grammar(index, tmp_path, monkeypatch):
    (path := tmp_path / "generated.py").write_text(scopes_sources()[index])
    check(path, monkeypatch)


def test_the_shortcuts_are_taken_on_the_reuses_shape(tmp_path, monkeypatch):
    # reuses: tasks and creates outside every loop, no MANUAL scope
    (path := tmp_path / "reuses.py").write_text(source_of("reuses", 48))
    (program,) = war_inputs(path)
    renewed = counting(monkeypatch, hazards.LiveAccesses, "of")  # (``renew`` asks each root's indexes)
    shared = counting(monkeypatch, war, "shared_in_loops")
    war_output(program)
    assert shared == [] and renewed == []
    monkeypatch.setattr(hazards, "ONCE_OUTSIDE_LOOPS", False)
    war_output(program)
    assert renewed != []
