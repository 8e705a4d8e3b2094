"""convert_to_ssa proves an operation (a Bin or a Cmp: a task's index argument, a bound, a
condition) keeps by one loop over it (``_keeps``: every name it reads is its own version in
force), without the renaming's call per node. With the proof forced off (every operation
renamed node by node), the ssa tree must be the same on every example and golden program, the
bench shapes and random programs (manual scopes too); the proof must be taken on the nested
shape (its task arguments ``a + b * 1 + c - d`` read loop variables only), and it must say no
where a name read changes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import bench_file, corpus_tests, pass_inputs, random_file, run_both_ways, running

from nanopass.language import trusted_checked
from nanopass.languages import SURFACE
from nanopass.languages.terms import BinOp, CmpOp, DType
from nanopass.passes import convert_to_ssa
from nanopass.passes.convert_to_ssa import ConvertToSsa, _keeps

NEVER = [(convert_to_ssa, "_keeps", lambda expr, env: False)]

run = running(ConvertToSsa)


def check(path: Path) -> int:
    runs = 0
    for given in pass_inputs(path, "convert_to_ssa"):
        fast, full = run_both_ways(run, given, NEVER)
        assert fast == full, path.name
        with trusted_checked():
            assert run(given) == fast, path.name
        runs += 1
    return runs


test_programs, test_shapes = corpus_tests(check)


@pytest.mark.parametrize("manual", [False, True])
def test_random_programs(tmp_path, manual):
    assert sum(check(random_file(tmp_path, 4030 + seed, manual=manual)) for seed in range(40))


def test_the_proof_is_taken_on_the_nested_shape(tmp_path, monkeypatch):
    (given,) = pass_inputs(bench_file(tmp_path, "nested", 24), "convert_to_ssa")
    answers = []
    monkeypatch.setattr(convert_to_ssa, "_keeps", lambda expr, env: answers.append(_keeps(expr, env)) or answers[-1])
    run(given)
    assert answers.count(True) >= 24 and False not in answers  # (every task of every loop nest)


def _chain(names: list[str]):
    """``names[0] + (names[1] * 1) + names[2] ...``: a left-leaning chain with a right operation."""
    S = SURFACE
    expr = S.Var(names[0])
    for k, name in enumerate(names[1:]):
        right = S.Bin(BinOp.mul, S.Var(name), S.Int(1, DType.INDEX)) if k == 0 else S.Var(name)
        expr = S.Bin(BinOp.add, expr, right)
    return S.Cmp(CmpOp.lt, expr, S.Int(4, DType.INDEX))


@pytest.mark.parametrize("changed", ["a", "b", "c", "d"])
def test_the_proof_says_no_where_a_name_read_changes(changed):
    env = {name: name for name in "abcd"}
    expr = _chain(list("abcd"))
    assert _keeps(expr, env)
    env[changed] = changed + "__ssa_v1"
    assert not _keeps(expr, env)
    del env[changed]  # (a name not defined yet: no proof either, the renaming reports it)
    assert not _keeps(expr, env)


CHANGING = '''import nanopass.dsl as pl


@pl.program
class Changing:
    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, src: pl.Tensor[[16, 16], pl.FP32], k: pl.Scalar[pl.INT64], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        k = n + 1
        for i in pl.range(4):
            y = self.acc(x, k * 2 + i, y)
            k = k + 1
        return y
'''


def test_a_wrong_proof_changes_the_tree(tmp_path):
    # (so the comparisons above can fail: the task's argument reads the carry ``k``, renamed)
    path = tmp_path / "changing.py"
    path.write_text(CHANGING)
    (given,) = pass_inputs(path, "convert_to_ssa")
    fast, wrong = run_both_ways(run, given, [(convert_to_ssa, "_keeps", lambda expr, env: True)])
    assert fast != wrong
    assert "k__iter_v1" in repr(fast) and check(path) == 1
