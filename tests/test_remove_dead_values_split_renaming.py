"""remove_dead_values renames the reads of a per-iteration loop's split TaskId iter_args (each to
its init) looking at a task's or a dummy's dependencies and a statement's plain names in place
(``_renamed_tids``), ``util.renamed`` asked only of what reads one otherwise: the same statements
as ``renamed`` of each one, on every example and golden program, the bench shapes, random manual
programs and a loop whose task reads the carry through an expression; and no call of ``renamed``
on the scopes shape, whose every task reads its carry through a dependency alone."""

from __future__ import annotations

import importlib
from pathlib import Path

from conftest import bench_file, corpus_tests, pass_inputs, random_file, running

from nanopass.languages.terms import LoopKind
from nanopass.passes import remove_dead_values
from nanopass.passes.drop_latest_runs_from_joins import DropLatestRunsFromJoins
from nanopass.passes.remove_dead_values import RemoveDeadValues, _renamed_tids
from nanopass.passes.util import iter_stmts, renamed

importlib.import_module("nanopass.passes.pipeline")  # every language and pass

EXPRESSION_READ = '''import nanopass.dsl as pl


@pl.program
class Reads:
    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, src: pl.Tensor[[16, 16], pl.FP32], k: pl.Scalar[pl.INT64], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            prev = None
            for b in pl.parallel(4):
                y, prev = pl.submit(self.acc, x, b * 2 + n, y, deps=[prev])
        return y
'''


def split_loops(given) -> list:
    """(body, inits) of each loop of ``given`` whose TaskId carries remove_dead_values may split."""
    out = []
    for stmt in iter_stmts(given.orch.body):
        if stmt._production == "For" and stmt.kind is LoopKind.parallel:
            inits = {it.var.name: it.init.name for it in stmt.iters if remove_dead_values._split_carry(it)}
            if inits:
                out.append((stmt.body, inits))
    return out


def spans(node) -> list:
    """The spans of ``node`` and of every node under it, in order (``==`` of nodes leaves them out)."""
    children = getattr(node, "_children", None)
    return [node.span] + [span for child in (children() if children else ()) for span in spans(child)]


def check(path: Path) -> int:
    loops = 0
    for given in pass_inputs(path, "remove_dead_values"):
        for body, inits in split_loops(given):
            fast, full = _renamed_tids(body, inits), tuple(renamed(stmt, inits) for stmt in body)
            assert fast == full and [spans(s) for s in fast] == [spans(s) for s in full], path.name
            loops += 1
    return loops


test_programs, test_shapes = corpus_tests(check)


def test_random_manual_programs(tmp_path):
    assert sum(check(random_file(tmp_path, 4430 + seed, manual=True)) for seed in range(30)) > 0  # (some loops split)


def test_a_carry_read_through_an_expression(tmp_path):
    path = tmp_path / "reads.py"
    path.write_text(EXPRESSION_READ)
    assert check(path) == 1
    (given,) = pass_inputs(path, "remove_dead_values")
    ((body, inits),) = split_loops(given)
    task = _renamed_tids(body, inits)[0]
    assert task is not body[0] and [d.value.name for d in task.deps] == list(inits.values())


def test_the_scopes_shape_renames_without_renamed(tmp_path, monkeypatch):
    # (the shape as the benchmark compiles it: at its sizes the lean analysis gives up before
    # drop_latest_runs_from_joins folds a scope loop's join; at this size it would fold it)
    monkeypatch.setattr(DropLatestRunsFromJoins, "fold_after_loop", lambda self, *args: None)
    (given,) = pass_inputs(bench_file(tmp_path, "scopes", 8), "remove_dead_values")
    assert len(split_loops(given)) == 2  # (N / 4 scopes, a loop each)
    expected = running(RemoveDeadValues)(given)
    calls = []

    def counting(node, names):
        calls.append(node)
        return renamed(node, names)

    monkeypatch.setattr(remove_dead_values, "renamed", counting)
    assert running(RemoveDeadValues)(given) == expected
    assert calls == []
