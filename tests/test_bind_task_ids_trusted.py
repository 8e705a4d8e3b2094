"""``bind_task_ids`` builds its ``TidSource`` entries and its function with ``make_trusted``: each
entry's name and storage are binder names, its source a ``DepSource`` member and its size an
integer field of the input (a carry plan's, an array type's or create's), and the function's
other fields are its input's. Inside ``trusted_checked()`` ``make_trusted`` is the checked
``make``: the pass must give the same output both ways (and raise nothing when checked) on every
example and golden program, the bench shapes and random programs (manual scopes too).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import corpus_tests, bench_file, pass_inputs, random_file, running

from nanopass.errors import GrammarError
from nanopass.language import trusted_checked
from nanopass.languages import TID_BOUND
from nanopass.passes.bind_task_ids import BindTaskIds

SEEDS = range(24)


def check(path: Path) -> None:
    run = running(BindTaskIds)
    for given in pass_inputs(path, "bind_task_ids"):
        trusted = run(given)
        with trusted_checked():
            checked = run(given)
        assert trusted == checked
        assert len(trusted.orch.tids) == len(checked.orch.tids)


test_programs, test_shapes = corpus_tests(check)


@pytest.mark.parametrize("manual", [False, True])
def test_random_programs(tmp_path, manual):
    for seed in SEEDS:
        check(random_file(tmp_path, seed, manual=manual))


def test_the_checked_constructor_refuses_what_the_trusted_one_takes():
    # (so the comparison above can fail: a wrong value passes make_trusted, not the checked make)
    wrong = TID_BOUND.TidSource.make_trusted("t", "fresh", "t", 0)
    assert wrong.source == "fresh"
    with trusted_checked(), pytest.raises(GrammarError):
        TID_BOUND.TidSource.make_trusted("t", "fresh", "t", 0)


def test_the_scopes_shape_binds_every_task_id(tmp_path):
    (given,) = pass_inputs(bench_file(tmp_path, "scopes", 8), "bind_task_ids")
    tids = running(BindTaskIds)(given).orch.tids
    assert tids and {t.source.name for t in tids} >= {"fresh", "barrier", "none_seed"}
    # (the shape's pl.parallel results are read by nothing: remove_dead_values drops them; a read one is an array)
    (given,) = pass_inputs(Path(__file__).parent / "found" / "class6_taskid_through_two_parallel_loops.py", "bind_task_ids")
    assert "array_carry" in {t.source.name for t in running(BindTaskIds)(given).orch.tids}
