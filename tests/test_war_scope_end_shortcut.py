"""order_write_after_read leaves the facts of a manual scope with no loop around it unmarked
(not ``closed``) when the scope ends (``SCOPE_END_SHORTCUT``, ``find_hazards``'s
``close_run_once``): the pass's output and notes are the same with the shortcut on and off on
every example, golden and found program, the benchmark's shapes and random programs of three
generators (manual scopes among them); the shortcut is taken (the ``scopes`` shape ends none of
its scopes' facts); and the comparison can fail (facts of a scope in a loop left open change an
output).
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


def outputs(tree, monkeypatch, on: bool, flag: str = "SCOPE_END_SHORTCUT"):
    """The pass's output and notes on ``tree`` with the shortcut ``flag`` on or off."""
    monkeypatch.setattr(war, flag, on)
    ctx = PassContext()
    return WAR(ctx).run(tree), [(n.kind, n.message) for n in ctx.notes]


def same_both_ways(path, monkeypatch, flag: str = "SCOPE_END_SHORTCUT") -> int:
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


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_the_scope_end_shortcut_changes_nothing(path, monkeypatch):
    same_both_ways(path, monkeypatch)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_scope_end_shortcut_changes_nothing_on_the_shapes(shape, tmp_path, monkeypatch):
    path = tmp_path / f"{shape}.py"
    path.write_text(source_of(shape, 48))
    assert same_both_ways(path, monkeypatch) == 1


@pytest.mark.parametrize("index", range(30))
def test_the_scope_end_shortcut_changes_nothing_on_random_programs(index, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(random_sources()[index])
    same_both_ways(path, monkeypatch)


@pytest.mark.parametrize("index", range(12))
def test_the_scope_end_shortcut_changes_nothing_on_the_testers_programs(index, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(attack_programs()[index])
    same_both_ways(path, monkeypatch)


@pytest.mark.parametrize("index", range(40))
def test_the_scope_end_shortcut_changes_nothing_on_the_scopes_grammar(index, tmp_path, monkeypatch):
    path = tmp_path / "generated.py"
    path.write_text(scopes_sources()[index])
    same_both_ways(path, monkeypatch)


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
    out, notes = outputs(tree, monkeypatch, True)
    assert not ended and notes
    assert (out, notes) == outputs(tree, monkeypatch, False)
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
    right = outputs(tree, monkeypatch, True)
    monkeypatch.setattr(hazards.Access, "ended", lambda self: self)
    assert outputs(tree, monkeypatch, True) != right
