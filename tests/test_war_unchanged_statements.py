"""order_write_after_read's rewrite returns the tasks that are neither the target nor the source
of an edge as they are (``UNCHANGED_AS_THEY_ARE``): the pass's output and notes are the same with the shortcut on and off on
every example, golden and found program, the benchmark's shapes and random programs of three
generators; the shortcut is taken (on the ``reuses`` shape's tasks without edges); and the comparison can
fail (a task left as it is although it is an edge's target loses the edge).
"""

from __future__ import annotations

import pytest

from conftest import CORPUS
from test_runtime_order_state import attack_programs
from test_war_roots import war_inputs
from test_war_scope_end_shortcut import SHAPES, outputs, random_sources, same_both_ways, scopes_sources

from nanopass.passes import order_write_after_read as war
from nanopass.tools.bench import source_of

FLAG = "UNCHANGED_AS_THEY_ARE"


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_unchanged_statements_as_they_are_change_nothing(path, monkeypatch):
    same_both_ways(path, monkeypatch, FLAG)


@pytest.mark.parametrize("shape", SHAPES)
def test_unchanged_statements_as_they_are_change_nothing_on_the_shapes(shape, tmp_path, monkeypatch):
    path = tmp_path / f"{shape}.py"
    path.write_text(source_of(shape, 48))
    assert same_both_ways(path, monkeypatch, FLAG) == 1


@pytest.mark.parametrize("index", range(30))
def test_unchanged_statements_as_they_are_change_nothing_on_random_programs(index, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(random_sources()[index])
    same_both_ways(path, monkeypatch, FLAG)


@pytest.mark.parametrize("index", range(12))
def test_unchanged_statements_as_they_are_change_nothing_on_the_testers_programs(index, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(attack_programs()[index])
    same_both_ways(path, monkeypatch, FLAG)


@pytest.mark.parametrize("index", range(40))
def test_unchanged_statements_as_they_are_change_nothing_on_the_scopes_grammar(index, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(scopes_sources()[index])
    same_both_ways(path, monkeypatch, FLAG)


def test_the_shortcut_is_taken(tmp_path, monkeypatch):
    path = tmp_path / "reuses.py"
    path.write_text(source_of("reuses", 24))
    (tree,) = war_inputs(path)
    rewritten = []
    rewrite = war.EdgeWriter.rewrite_task
    monkeypatch.setattr(war.EdgeWriter, "rewrite_task", lambda self, task: rewritten.append(task) or rewrite(self, task))
    on = outputs(tree, monkeypatch, True, FLAG)
    count = len(rewritten)
    rewritten.clear()
    assert on == outputs(tree, monkeypatch, False, FLAG) and on[1]
    assert 0 < count < len(rewritten)


def test_a_target_left_as_it_is_loses_its_edge(tmp_path, monkeypatch):
    """(The comparison can fail: a target of an edge must be rewritten.)"""
    path = tmp_path / "reuses.py"
    path.write_text(source_of("reuses", 8))
    (tree,) = war_inputs(path)
    right = outputs(tree, monkeypatch, True, FLAG)
    monkeypatch.setattr(war.OrderWriteAfterRead, "tasks", property(lambda self: set(), lambda self, value: None), raising=False)
    assert outputs(tree, monkeypatch, True, FLAG) != right
