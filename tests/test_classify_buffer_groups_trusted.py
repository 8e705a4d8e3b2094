"""``classify_iter_arg_carry`` builds the function's ``BufferGroup`` entries with ``make_trusted``:
each root and alias is the name of a param or binder of the function (``buffer_roots`` maps names
to names), a symbol checked where that param or binder was made. Inside ``trusted_checked()``
``make_trusted`` is the checked ``make``: the pass must give the same output both ways (and raise
nothing when checked) on every example and golden program, the bench shapes and random programs
(manual scopes too).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import corpus_tests, outcome_running, pass_inputs, random_file

from nanopass.errors import GrammarError
from nanopass.language import trusted_checked
from nanopass.languages import CARRIED
from nanopass.passes.classify_iter_arg_carry import ClassifyIterArgCarry

SEEDS = range(24)


def check(path: Path) -> None:
    run = outcome_running(ClassifyIterArgCarry)
    for given in pass_inputs(path, "classify_iter_arg_carry"):
        trusted = run(given)
        with trusted_checked():
            checked = run(given)
        assert trusted == checked
        if not isinstance(trusted, tuple):
            assert [g.aliases for g in trusted.orch.buffer_groups] == [g.aliases for g in checked.orch.buffer_groups]


test_programs, test_shapes = corpus_tests(check)


@pytest.mark.parametrize("manual", [False, True])
def test_random_programs(tmp_path, manual):
    for seed in SEEDS:
        check(random_file(tmp_path, seed, manual=manual))


def test_the_checked_constructor_refuses_what_the_trusted_one_takes():
    # (so the comparison above can fail: a name that is no symbol passes make_trusted, not the checked make)
    wrong = CARRIED.BufferGroup.make_trusted("a b", ["c"])
    assert wrong.root == "a b" and wrong.aliases == ("c",)
    with trusted_checked(), pytest.raises(GrammarError):
        CARRIED.BufferGroup.make_trusted("a b", ["c"])


def test_the_nested_shape_has_buffer_groups(tmp_path):
    from conftest import bench_file

    (given,) = pass_inputs(bench_file(tmp_path, "nested", 8), "classify_iter_arg_carry")
    groups = outcome_running(ClassifyIterArgCarry)(given).orch.buffer_groups
    assert groups and all(type(g.aliases) is tuple and g.aliases for g in groups)
