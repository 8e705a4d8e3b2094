"""Four shortcuts of order_write_after_read, each tested both ways: the pass's output and notes
are the same with the shortcut on and off on every example, golden and found program, the
benchmark's shapes and random programs of three generators (manual scopes among them); each is
taken where it should be, and each comparison can fail (a variant that goes too far changes an
output).

- ``SCOPE_END_SHORTCUT`` (``find_hazards``'s ``close_run_once=False``): the facts of a manual
  scope with no loop around it are not marked ``closed`` when it ends.
- ``UNREAD_NAMES_SHORTCUT`` (``forget_unread``): in a function with MANUAL scopes a fact's covers
  hold only the names of ``Prework.dep_sources`` (a loop's unused TaskId result covers nothing).
- ``UNCHANGED_AS_THEY_ARE``: a task that is neither the target nor the source of an edge is
  returned as it is.
- ``INOUT_WRITES_MEET`` (``inout_reads_meet=False``): in a function with MANUAL scopes an InOut
  argument's read meets no fact (its write meets every fact the read would).
"""

from __future__ import annotations

import itertools
import random

import pytest

from conftest import CORPUS
from test_runtime_order_state import attack_programs
from test_war_roots import WAR, war_inputs

from nanopass.passes import hazards
from nanopass.passes import order_write_after_read as war
from nanopass.rewrite import PassContext
from nanopass.tools.attack import scopes as scopes_grammar
from nanopass.tools.attack.program import render
from nanopass.tools.bench import source_of
from nanopass.tools.gen_programs import RandomChooser, generate

SHAPES = ("straight", "nested", "branches", "tiles", "scopes", "mixed", "assembles", "reuses")
FLAGS = ("SCOPE_END_SHORTCUT", "UNREAD_NAMES_SHORTCUT", "UNCHANGED_AS_THEY_ARE", "INOUT_WRITES_MEET")


def outputs(tree, monkeypatch, on: bool, flag: str):
    """The pass's output and notes on ``tree`` with the shortcut ``flag`` on or off."""
    monkeypatch.setattr(war, flag, on)
    ctx = PassContext()
    return WAR(ctx).run(tree), [(n.kind, n.message) for n in ctx.notes]


def same_both_ways(path, monkeypatch, flag: str) -> int:
    trees = war_inputs(path)
    for tree in trees:
        assert outputs(tree, monkeypatch, True, flag) == outputs(tree, monkeypatch, False, flag)
    return len(trees)


def random_sources() -> list[str]:
    return [generate(RandomChooser(3910 + seed), manual=seed % 3 != 2).render() for seed in range(30)]


def scopes_sources() -> list[str]:
    """Programs of the tester's scopes grammar (manual scopes, in loops and not, with host accesses)."""
    programs = list(itertools.islice(scopes_grammar.GRAMMAR.programs(4), 4000))
    return [render(p).source for p in random.Random(39).sample(programs, 40)]


@pytest.mark.parametrize("flag", FLAGS)
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_a_shortcut_changes_nothing(path, flag, monkeypatch):
    same_both_ways(path, monkeypatch, flag)


@pytest.mark.parametrize("flag", FLAGS)
@pytest.mark.parametrize("shape", SHAPES)
def test_a_shortcut_changes_nothing_on_the_shapes(shape, flag, tmp_path, monkeypatch):
    path = tmp_path / f"{shape}.py"
    path.write_text(source_of(shape, 48))
    assert same_both_ways(path, monkeypatch, flag) == 1


@pytest.mark.parametrize("flag", FLAGS)
@pytest.mark.parametrize("index", range(30))
def test_a_shortcut_changes_nothing_on_random_programs(index, flag, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(random_sources()[index])
    same_both_ways(path, monkeypatch, flag)


@pytest.mark.parametrize("flag", FLAGS)
@pytest.mark.parametrize("index", range(12))
def test_a_shortcut_changes_nothing_on_the_testers_programs(index, flag, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(attack_programs()[index])
    same_both_ways(path, monkeypatch, flag)


@pytest.mark.parametrize("flag", FLAGS)
@pytest.mark.parametrize("index", range(40))
def test_a_shortcut_changes_nothing_on_the_scopes_grammar(index, flag, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(scopes_sources()[index])
    same_both_ways(path, monkeypatch, flag)


def test_the_scopes_shape_ends_no_fact(tmp_path, monkeypatch):
    path = tmp_path / "scopes.py"
    path.write_text(source_of("scopes", 16))
    (tree,) = war_inputs(path)
    ended = []
    end = hazards.Access.ended

    def spy(self):
        ended.append(self)
        return end(self)

    monkeypatch.setattr(hazards.Access, "ended", spy)
    out, notes = outputs(tree, monkeypatch, True, "SCOPE_END_SHORTCUT")
    assert not ended and notes
    assert (out, notes) == outputs(tree, monkeypatch, False, "SCOPE_END_SHORTCUT")
    assert len(ended) >= 4  # (off: each scope's facts end)


def test_facts_left_open_in_a_scope_in_a_loop_change_an_output(tmp_path, monkeypatch):
    """(The comparison can fail: a scope's facts must end where the scope can run again.)"""
    source = """import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def up(self, y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def rd(self, x: pl.Tensor[[16, 16], pl.FP32], o: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.range(n):
            with pl.manual_scope():
                o = pl.create_tensor([16, 16], dtype=pl.FP32)
                o = self.rd(y, o)
                y = self.up(y)
        return y
"""
    path = tmp_path / "looped.py"
    path.write_text(source)
    (tree,) = war_inputs(path)
    right = outputs(tree, monkeypatch, True, "SCOPE_END_SHORTCUT")
    monkeypatch.setattr(hazards.Access, "ended", lambda self: self)
    assert outputs(tree, monkeypatch, True, "SCOPE_END_SHORTCUT") != right


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
    on = outputs(tree, monkeypatch, True, "UNREAD_NAMES_SHORTCUT")
    assert on[1] and not any("__rv" in name for names in covers for name in names)
    covers.clear()
    assert on == outputs(tree, monkeypatch, False, "UNREAD_NAMES_SHORTCUT")
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
            right = outputs(tree, monkeypatch, True, "UNREAD_NAMES_SHORTCUT")
            with monkeypatch.context() as m:
                m.setattr(hazards, "_prework", without_deps)
                differ += outputs(tree, monkeypatch, True, "UNREAD_NAMES_SHORTCUT") != right
    assert differ >= 1


def test_the_reuses_shape_rewrites_only_the_tasks_with_edges(tmp_path, monkeypatch):
    path = tmp_path / "reuses.py"
    path.write_text(source_of("reuses", 24))
    (tree,) = war_inputs(path)
    rewritten = []
    rewrite = war.EdgeWriter.rewrite_task
    monkeypatch.setattr(war.EdgeWriter, "rewrite_task", lambda self, task: rewritten.append(task) or rewrite(self, task))
    on = outputs(tree, monkeypatch, True, "UNCHANGED_AS_THEY_ARE")
    count = len(rewritten)
    rewritten.clear()
    assert on == outputs(tree, monkeypatch, False, "UNCHANGED_AS_THEY_ARE") and on[1]
    assert 0 < count < len(rewritten)


def test_a_target_left_as_it_is_loses_its_edge(tmp_path, monkeypatch):
    """(The comparison can fail: a target of an edge must be rewritten.)"""
    path = tmp_path / "reuses.py"
    path.write_text(source_of("reuses", 8))
    (tree,) = war_inputs(path)
    right = outputs(tree, monkeypatch, True, "UNCHANGED_AS_THEY_ARE")
    # (the tasks the writer rewrites, ``EdgeWriter.site_index``, which the pass asks too: none)
    monkeypatch.setattr(war.EdgeWriter, "site_index", property(lambda self: {}, lambda self, value: None), raising=False)
    assert outputs(tree, monkeypatch, True, "UNCHANGED_AS_THEY_ARE") != right


def test_the_scopes_shape_meets_with_writes_alone(tmp_path, monkeypatch):
    path = tmp_path / "scopes.py"
    path.write_text(source_of("scopes", 16))
    (tree,) = war_inputs(path)
    left = []
    meeting = hazards._meeting
    monkeypatch.setattr(hazards, "_meeting", lambda mine: left.append((len(mine), len(meeting(mine)))) or meeting(mine))
    on = outputs(tree, monkeypatch, True, "INOUT_WRITES_MEET")
    # (each task's InOut argument: its write alone, the read its certain write supersedes not made)
    assert on[1] and left and all(kept == 1 and made == 1 for made, kept in left)
    left.clear()
    assert on == outputs(tree, monkeypatch, False, "INOUT_WRITES_MEET") and not left


def test_a_walk_whose_inout_arguments_meet_nothing_loses_edges(tmp_path, monkeypatch):
    """(The comparison can fail: the write of an InOut argument must meet what its read would.)"""
    path = tmp_path / "scopes.py"
    path.write_text(source_of("scopes", 8))
    (tree,) = war_inputs(path)
    right = outputs(tree, monkeypatch, True, "INOUT_WRITES_MEET")
    monkeypatch.setattr(hazards, "_meeting", lambda mine: [a for a in mine if a.dir is not hazards.ArgDir.InOut])
    assert outputs(tree, monkeypatch, True, "INOUT_WRITES_MEET") != right
