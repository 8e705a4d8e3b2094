"""order_write_after_read, in a function with MANUAL scopes, lets an InOut argument's read meet no
fact (``INOUT_WRITES_MEET``, ``find_hazards``'s ``inout_reads_meet=False``: the argument's write
meets every fact the read does, and every pair the pass keeps with the read it keeps with the
write): the pass's output and notes are the same with the shortcut on and off on every example,
golden and found program, the benchmark's shapes and random programs of three generators; the
shortcut is taken (the ``scopes`` shape's tasks meet with their writes alone); and the comparison
can fail (a walk whose InOut arguments meet nothing loses edges).
"""

from __future__ import annotations

import pytest

from conftest import CORPUS
from test_runtime_order_state import attack_programs
from test_war_roots import war_inputs
from test_war_scope_end_shortcut import SHAPES, outputs, random_sources, same_both_ways, scopes_sources

from nanopass.passes import hazards
from nanopass.tools.bench import source_of

FLAG = "INOUT_WRITES_MEET"


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_inout_writes_meeting_alone_change_nothing(path, monkeypatch):
    same_both_ways(path, monkeypatch, FLAG)


@pytest.mark.parametrize("shape", SHAPES)
def test_inout_writes_meeting_alone_change_nothing_on_the_shapes(shape, tmp_path, monkeypatch):
    path = tmp_path / f"{shape}.py"
    path.write_text(source_of(shape, 48))
    assert same_both_ways(path, monkeypatch, FLAG) == 1


@pytest.mark.parametrize("index", range(30))
def test_inout_writes_meeting_alone_change_nothing_on_random_programs(index, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(random_sources()[index])
    same_both_ways(path, monkeypatch, FLAG)


@pytest.mark.parametrize("index", range(12))
def test_inout_writes_meeting_alone_change_nothing_on_the_testers_programs(index, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(attack_programs()[index])
    same_both_ways(path, monkeypatch, FLAG)


@pytest.mark.parametrize("index", range(40))
def test_inout_writes_meeting_alone_change_nothing_on_the_scopes_grammar(index, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(scopes_sources()[index])
    same_both_ways(path, monkeypatch, FLAG)


def test_the_scopes_shape_meets_with_writes_alone(tmp_path, monkeypatch):
    path = tmp_path / "scopes.py"
    path.write_text(source_of("scopes", 16))
    (tree,) = war_inputs(path)
    left = []
    meeting = hazards._meeting
    monkeypatch.setattr(hazards, "_meeting", lambda mine: left.append((len(mine), len(meeting(mine)))) or meeting(mine))
    on = outputs(tree, monkeypatch, True, FLAG)
    assert on[1] and left and all(kept == 1 and made == 2 for made, kept in left)
    left.clear()
    assert on == outputs(tree, monkeypatch, False, FLAG) and not left


def test_a_walk_whose_inout_arguments_meet_nothing_loses_edges(tmp_path, monkeypatch):
    """(The comparison can fail: the write of an InOut argument must meet what its read would.)"""
    path = tmp_path / "scopes.py"
    path.write_text(source_of("scopes", 8))
    (tree,) = war_inputs(path)
    right = outputs(tree, monkeypatch, True, FLAG)
    monkeypatch.setattr(hazards, "_meeting", lambda mine: [a for a in mine if a.dir is not hazards.ArgDir.InOut])
    assert outputs(tree, monkeypatch, True, FLAG) != right
