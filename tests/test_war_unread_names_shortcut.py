"""order_write_after_read, in a function with MANUAL scopes, keeps in a fact's covers only the
names ``Prework.dep_sources`` lists
(``UNREAD_NAMES_SHORTCUT``, ``find_hazards``'s ``forget_unread``: a TaskId no dependency and no
covering transfer reads, such as a loop's unused TaskId result, covers nothing): the pass's output
and notes are the same with the shortcut on and off on every example, golden and found program,
the benchmark's shapes and random programs of three generators; the shortcut is taken (the
``scopes`` shape makes no fact covered by its loops' TaskId results); and the comparison can fail
(a ``dep_sources`` without the dependencies' names changes outputs).
"""

from __future__ import annotations

import pytest

from conftest import CORPUS
from test_runtime_order_state import attack_programs
from test_war_roots import war_inputs
from test_war_scope_end_shortcut import SHAPES, outputs, random_sources, same_both_ways, scopes_sources

from nanopass.passes import hazards
from nanopass.tools.bench import source_of

FLAG = "UNREAD_NAMES_SHORTCUT"


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_the_unread_names_shortcut_changes_nothing(path, monkeypatch):
    same_both_ways(path, monkeypatch, FLAG)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_unread_names_shortcut_changes_nothing_on_the_shapes(shape, tmp_path, monkeypatch):
    path = tmp_path / f"{shape}.py"
    path.write_text(source_of(shape, 48))
    assert same_both_ways(path, monkeypatch, FLAG) == 1


@pytest.mark.parametrize("index", range(30))
def test_the_unread_names_shortcut_changes_nothing_on_random_programs(index, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(random_sources()[index])
    same_both_ways(path, monkeypatch, FLAG)


@pytest.mark.parametrize("index", range(12))
def test_the_unread_names_shortcut_changes_nothing_on_the_testers_programs(index, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(attack_programs()[index])
    same_both_ways(path, monkeypatch, FLAG)


@pytest.mark.parametrize("index", range(40))
def test_the_unread_names_shortcut_changes_nothing_on_the_scopes_grammar(index, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(scopes_sources()[index])
    same_both_ways(path, monkeypatch, FLAG)


def test_the_scopes_shape_covers_nothing_by_its_loop_results(tmp_path, monkeypatch):
    path = tmp_path / "scopes.py"
    path.write_text(source_of("scopes", 16))
    (tree,) = war_inputs(path)
    covers = []
    covered = hazards.Access.covered

    def spy(self, names):
        covers.append(names)
        return covered(self, names)

    monkeypatch.setattr(hazards.Access, "covered", spy)
    on = outputs(tree, monkeypatch, True, FLAG)
    assert on[1] and not any("__rv" in name for names in covers for name in names)
    covers.clear()
    assert on == outputs(tree, monkeypatch, False, FLAG)
    assert any("__rv" in name for names in covers for name in names)  # (off: each loop's result covers its facts)


def test_a_dep_sources_without_the_dependencies_changes_outputs(tmp_path, monkeypatch):
    """(The comparison can fail: a task whose dependency covers a fact then gets an edge anyway.)"""
    prework = hazards._prework

    def without_deps(*args):
        out = prework(*args)
        if out.dep_sources is not None:
            out.dep_sources = {name for name in out.dep_sources if "__iter" not in name and "__ssa" not in name}
        return out

    differ = 0
    for k, source in enumerate([source_of("scopes", 8), *scopes_sources()[:20]]):
        path = tmp_path / f"p{k}.py"
        path.write_text(source)
        for tree in war_inputs(path):
            right = outputs(tree, monkeypatch, True, FLAG)
            with monkeypatch.context() as m:
                m.setattr(hazards, "_prework", without_deps)
                differ += outputs(tree, monkeypatch, True, FLAG) != right
    assert differ >= 1
