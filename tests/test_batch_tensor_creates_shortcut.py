"""batch_tensor_creates keeps the statements after the last create as they are, unvisited, once every
create of the function is batched (``nothing_left``), and builds its ``Create`` nodes unchecked
(``make_trusted``: the fields of the let's checked binder and CreateTensor). With the shortcut
forced off, and with every construction checked (``trusted_checked()``), the output must be the
same on every example and golden program, the bench shapes and random programs (manual scopes
too); the shortcut must be taken on the mixed shape (creates first, then loops and ifs).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import GOLDEN, bench_file, corpus_tests, pass_inputs, random_file, run_both_ways, running

from nanopass.language import trusted_checked
from nanopass.passes.batch_tensor_creates import BatchTensorCreates

NEVER = [(BatchTensorCreates, "nothing_left", lambda self: False)]


run = running(BatchTensorCreates)


def checked_run(tree):
    with trusted_checked():
        return run(tree)


def check(path: Path) -> int:
    runs = 0
    for given in pass_inputs(path, "batch_tensor_creates"):
        fast, full = run_both_ways(run, given, NEVER)
        assert fast == full, path.name
        assert checked_run(given) == fast, path.name
        runs += 1
    return runs


test_programs, test_shapes = corpus_tests(check)


@pytest.mark.parametrize("manual", [False, True])
def test_random_programs(tmp_path, manual):
    assert sum(check(random_file(tmp_path, seed, manual=manual)) for seed in range(40))


def test_the_shortcut_is_taken_on_the_mixed_shape(tmp_path, monkeypatch):
    (given,) = pass_inputs(bench_file(tmp_path, "mixed", 24), "batch_tensor_creates")
    answers = []
    original = BatchTensorCreates.nothing_left
    monkeypatch.setattr(BatchTensorCreates, "nothing_left", lambda self: answers.append(original(self)) or answers[-1])
    run(given)
    assert True in answers and False not in answers[answers.index(True):]


def test_a_wrong_shortcut_changes_the_output():
    # (so the comparisons above can fail: a create in a scope after the function's own creates
    # is left unbatched when the statements after those are taken to hold none)
    (given,) = pass_inputs(GOLDEN / "scope_escape.py", "batch_tensor_creates")
    fast, wrong = run_both_ways(run, given, [(BatchTensorCreates, "nothing_left", lambda self: True)])
    assert fast != wrong
