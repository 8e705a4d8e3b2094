"""order_write_after_read's rewrite visits only the statements of the function's body that hold a
statement it changes (``UNVISITED_AS_THEY_ARE``: found by the sites' positions, where the edges
are few for the body), tested both ways: the pass's output and notes are the same with it on and
off on every example, golden and found program, the bench shapes, random programs (manual scopes
among them), the tester's programs and the scopes grammar's (host accesses and fences among them);
it is taken on the reuses shape, and the comparison can fail (a statement left unvisited that
holds a change loses it)."""

from __future__ import annotations

import pytest

from conftest import CORPUS, SHAPES
from test_runtime_order_state import attack_programs
from test_war_roots import war_inputs
from test_war_walk_shortcuts import outputs, random_sources, same_both_ways, scopes_sources

from nanopass.passes import order_write_after_read as war
from nanopass.tools.bench import source_of

FLAG = "UNVISITED_AS_THEY_ARE"


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_unvisited_changes_nothing(path, monkeypatch):
    same_both_ways(path, monkeypatch, FLAG)


@pytest.mark.parametrize("shape", SHAPES)
def test_unvisited_changes_nothing_on_the_shapes(shape, tmp_path, monkeypatch):
    path = tmp_path / f"{shape}.py"
    path.write_text(source_of(shape, 48))
    assert same_both_ways(path, monkeypatch, FLAG) == 1


def test_unvisited_changes_nothing_on_generated_programs(tmp_path, monkeypatch):
    sources = random_sources() + attack_programs()[:12] + scopes_sources()
    taken = []  # (whether a host fence was placed) per run that took the shortcut
    visit_at = war.OrderWriteAfterRead.visit_at
    monkeypatch.setattr(war.OrderWriteAfterRead, "visit_at",
                        lambda self, body, changed: taken.append(bool(self.writer.fences_at)) or visit_at(self, body, changed))
    for k, source in enumerate(sources):
        path = tmp_path / f"generated{k}.py"
        path.write_text(source)
        same_both_ways(path, monkeypatch, FLAG)
    assert len(sources) >= 80 and len(taken) >= 10 and any(taken)  # (host fences among them)


def visited_at(tree, monkeypatch) -> list[set]:
    """The index sets ``visit_at`` is given in the pass's run on ``tree`` (shortcut on)."""
    given = []
    visit_at = war.OrderWriteAfterRead.visit_at
    monkeypatch.setattr(war.OrderWriteAfterRead, "visit_at", lambda self, body, changed: given.append(set(changed)) or visit_at(self, body, changed))
    outputs(tree, monkeypatch, True, FLAG)
    return given


def test_the_reuses_shape_visits_only_the_tasks_with_edges(tmp_path, monkeypatch):
    path = tmp_path / "reuses.py"
    path.write_text(source_of("reuses", 24))
    (tree,) = war_inputs(path)
    (changed,) = visited_at(tree, monkeypatch)
    assert 0 < len(changed) < len(tree.orch.body) // 2


def test_the_scopes_shape_visits_every_statement(tmp_path, monkeypatch):
    path = tmp_path / "scopes.py"
    path.write_text(source_of("scopes", 24))
    (tree,) = war_inputs(path)
    assert visited_at(tree, monkeypatch) == []  # (an edge in each scope: visit_all)


def test_a_statement_left_unvisited_loses_its_change(tmp_path, monkeypatch):
    """(The comparison can fail: each statement holding a change must be visited.)"""
    path = tmp_path / "reuses.py"
    path.write_text(source_of("reuses", 24))
    (tree,) = war_inputs(path)
    right = outputs(tree, monkeypatch, True, FLAG)
    visit_at = war.OrderWriteAfterRead.visit_at
    monkeypatch.setattr(war.OrderWriteAfterRead, "visit_at", lambda self, body, changed: visit_at(self, body, set(sorted(changed)[1:])))
    assert outputs(tree, monkeypatch, True, FLAG) != right
