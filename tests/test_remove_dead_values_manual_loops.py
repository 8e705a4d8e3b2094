"""remove_dead_values's liveness finds the per-iteration loops (whose TaskId carries are two
values) in its own walk: a pl.parallel loop with a static trip count met while the walk is inside
a manual scope (up to the scope's last statement). The carries it splits are those of
``per_iteration_loops`` (the second walk it made before) that ``_split_carry`` accepts, on every
example, golden and found program, every bench shape and random programs with manual scopes; and
a loop of a manual scope's last statement, or right after the scope, is judged in or out."""

from __future__ import annotations

import pytest

from conftest import CORPUS, SHAPES, bench_file, pass_inputs, random_file

from nanopass.languages.statements import iter_stmts, reusing_walks
from nanopass.passes import remove_dead_values
from nanopass.passes.classify_iter_arg_carry import per_iteration_loops
from nanopass.passes.remove_dead_values import RemoveDeadValues

PASS = "remove_dead_values"


def split_by_liveness(monkeypatch, body) -> set[int]:
    """The ids of the IterArgs the liveness of ``body`` splits into two values."""
    split: set[int] = set()
    original = remove_dead_values._split_carry

    def recording(it):
        accepted = original(it)
        if accepted:
            split.add(id(it))
        return accepted

    with monkeypatch.context() as patch:
        patch.setattr(remove_dead_values, "_split_carry", recording)
        with reusing_walks():
            RemoveDeadValues.liveness(body, enough=True, apart=True)
    return split


def split_by_second_walk(body) -> set[int]:
    """The same ids, from ``per_iteration_loops`` (what the liveness asked before)."""
    loops = per_iteration_loops(body, check=False)
    return {
        id(it)
        for stmt in iter_stmts(body)
        if id(stmt) in loops
        for it in stmt.iters
        if remove_dead_values._split_carry(it)
    }


def same_split(monkeypatch, path) -> int:
    """Checks every input of the pass from ``path``; returns how many carries were split."""
    count = 0
    for given in pass_inputs(path, PASS):
        body = given.orch.body
        expected = split_by_second_walk(body)
        assert split_by_liveness(monkeypatch, body) == expected, path.name
        count += len(expected)
    return count


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_corpus(monkeypatch, path):
    same_split(monkeypatch, path)


@pytest.mark.parametrize("shape", SHAPES)
def test_shapes(monkeypatch, tmp_path, shape):
    split = same_split(monkeypatch, bench_file(tmp_path, shape, 24))
    assert split > 0 if shape == "scopes" else True  # (the scopes shape splits its loops' TaskId carries)


def test_random_manual_programs(monkeypatch, tmp_path):
    for seed in range(425, 485):
        same_split(monkeypatch, random_file(tmp_path, seed, manual=seed % 2 == 0))


SCOPE_THEN_LOOP = """import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, src: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            prev = None
            for b in pl.parallel(4):
                y, prev = pl.submit(self.acc, x, y, deps=[prev])
%s
        return y
"""
AFTER = """        prev = None
        for c in pl.parallel(4):
            y, prev = pl.submit(self.acc, x, y, deps=[prev])
"""


def test_a_loop_ending_a_manual_scope_is_in_it_and_one_after_it_is_not(monkeypatch, tmp_path):
    path = tmp_path / "scope_then_loop.py"
    path.write_text(SCOPE_THEN_LOOP % AFTER)
    (given,) = pass_inputs(path, PASS)
    loops = [s for s in iter_stmts(given.orch.body) if s._production == "For"]
    assert len(loops) == 2
    split = split_by_liveness(monkeypatch, given.orch.body)
    assert any(id(it) in split for it in loops[0].iters)  # (the last statement of the scope)
    assert not any(id(it) in split for it in loops[1].iters)  # (after it: outside)
    assert same_split(monkeypatch, path) == len(split)
