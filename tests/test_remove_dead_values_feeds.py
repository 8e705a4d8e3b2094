"""remove_dead_values' liveness keeps one table of what feeds each removable name and reads a
source that is a name without a walk. Whatever it is asked (``dummies``, ``enough``, ``apart``),
the live set answers every removable value as the full flow does (``enough`` may stop with fewer
live names, only when every removable one is live), and without ``apart`` or ``enough`` it is the
plain fixpoint's (``test_remove_dead_values_liveness.plain_liveness``): on every example, golden
and found program, every bench shape and random programs with and without manual scopes."""

from __future__ import annotations

import pytest

from conftest import CORPUS, SHAPES, bench_file, pass_inputs, random_file
from test_remove_dead_values_liveness import plain_liveness

from nanopass.passes.remove_dead_values import RemoveDeadValues

PASS = "remove_dead_values"


def check(path) -> int:
    """Checks every input of the pass from ``path``; returns how many removable names were dead."""
    dead = 0
    for given in pass_inputs(path, PASS):
        body = given.orch.body
        for dummies in (False, True):
            full, removable = RemoveDeadValues.liveness(body, dummies=dummies)
            assert full == plain_liveness(body, dummies), path.name
            for apart in (False, True):
                whole, removable_apart = RemoveDeadValues.liveness(body, dummies=dummies, apart=apart)
                assert removable_apart == removable
                enough, _ = RemoveDeadValues.liveness(body, dummies=dummies, enough=True, apart=apart)
                assert enough <= whole
                assert removable & enough == removable & whole, path.name
                if enough != whole:  # (stopped early: only when nothing goes)
                    assert removable <= enough
                if not apart:
                    assert whole == full
                dead += len(removable - whole)
    return dead


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_corpus(path):
    check(path)


@pytest.mark.parametrize("shape", SHAPES)
def test_shapes(tmp_path, shape):
    dead = check(bench_file(tmp_path, shape, 6))
    if shape in ("mixed", "scopes"):  # (dead if results; the scopes' dead pl.parallel TaskId results)
        assert dead


def test_random_programs(tmp_path):
    dead = 0
    for seed in range(40):
        dead += check(random_file(tmp_path, 4430 + seed, manual=seed % 2 == 0))
    assert dead  # (the flow met dead values, not only the early stop)
