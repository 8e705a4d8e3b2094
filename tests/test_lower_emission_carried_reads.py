"""lower_to_emission takes the names the C++ reads from hoist_scope_escapes' walk of the same body
(``reads.body_reads``, kept while compiling) when that pass made one, and the names the statements
bind from remap_output_aliases' binder list (``named_binders``), rather than ``survey`` the body's
expressions again (``used_and_bound``). Its answer must be ``survey``'s with every read read
(``survey(body)``, no names asked: the oracle, an independent walk of every read field) on every
example and golden program, the bench shapes and random programs (manual scopes too), and the
compile must take that way where hoist_scope_escapes numbered the body.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES, GOLDEN, bench_file, corpus_tests, counting, pass_inputs, random_file

from nanopass.api import run_pipeline
from nanopass.languages.statements import reusing_walks
from nanopass.loader import load_programs
from nanopass.passes import lower_to_emission
from nanopass.passes.reads import read_walk
from nanopass.rewrite import PassContext

SEEDS = range(30)


def answers(given) -> tuple:
    """(``survey``'s full answer, ``used_and_bound``'s from a walk of reads) on ``given``'s body:
    the names read and the set of names bound, as C++ identifiers."""
    lowering = lower_to_emission.LowerToEmission(PassContext())
    lowering.prepare(given)
    body = given.orch.body
    used, bound = lowering.survey(body)
    carried_used, carried_bound = lowering.used_and_bound(body, read_walk(body))
    return (used, set(bound)), (carried_used, set(carried_bound))


def check(path: Path) -> int:
    """Both answers for each program of ``path``; how many names they find read."""
    found = 0
    for given in pass_inputs(path, "lower_to_emission"):
        surveyed, carried = answers(given)
        assert carried == surveyed
        found += len(surveyed[0])
    return found


test_programs, test_shapes = corpus_tests(check)


@pytest.mark.parametrize("manual", [False, True])
def test_random_programs(tmp_path, manual):
    assert sum(check(random_file(tmp_path, seed, manual=manual)) for seed in SEEDS)


@pytest.mark.parametrize("path", [EXAMPLES / "manual_phases.py", GOLDEN / "array_carry_across_scope.py"], ids=lambda p: p.stem)
def test_a_read_that_copies_nothing_is_not_counted(path):
    # each carries a None-seeded TaskId through a loop whose carry starts from it: the seed's one
    # read is as the carry's init, which the C++ folds into the carry (PTO2TaskId::invalid()), so
    # the seed is not read; counted as a read, it would be (and declared)
    (given,) = pass_inputs(path, "lower_to_emission")
    lowering = lower_to_emission.LowerToEmission(PassContext())
    lowering.prepare(given)
    reads = read_walk(given.orch.body)
    seeds = {lowering.cn(name) for name in reads.whole if lowering.cn(name) in lowering.none_seeds and name not in reads.last}
    assert seeds
    used, _ = lowering.used_and_bound(given.orch.body, reads)
    assert not seeds & used


@pytest.mark.parametrize("shape", ["scopes", "nested"])
def test_the_compile_takes_the_walk_hoist_scope_escapes_made(tmp_path, monkeypatch, shape):
    # scopes: every manual scope numbered by hoist_scope_escapes, so lower_to_emission surveys
    # nothing; nested: no user scope, nothing numbered, so it surveys
    path = bench_file(tmp_path, shape, 16)
    surveys = counting(monkeypatch, lower_to_emission.LowerToEmission, "survey")
    carried = counting(monkeypatch, lower_to_emission.LowerToEmission, "used_and_bound")
    with reusing_walks():
        run_pipeline(load_programs(str(path))[0])
    assert (len(surveys), len(carried)) == ((0, 1) if shape == "scopes" else (1, 0))
