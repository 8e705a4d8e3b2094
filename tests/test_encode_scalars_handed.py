"""remap_output_aliases hands forward whether a parameter or a binder is a float scalar
(``binds_float_scalars``); encode_scalars reads it instead of walking the body when it is false
(``FLOATS_HANDED_FORWARD``). The fact must be what ``types.binds_a_float_scalar`` finds, and the
pass's output the same with the shortcut forced off, on every example, golden, shape and random program."""

from __future__ import annotations

from pathlib import Path

from conftest import corpus_tests, pass_runs, random_file, run_both_ways, running

from nanopass.passes import encode_scalars
from nanopass.passes.encode_scalars import EncodeScalars
from nanopass.passes.types import binds_a_float_scalar

OFF = [(encode_scalars, "FLOATS_HANDED_FORWARD", False)]
run = running(EncodeScalars)


def check(path: Path, refusals: bool = False) -> tuple[int, int]:
    runs = floats = 0
    for given, compiled in pass_runs(path, "encode_scalars", refusals=refusals):
        func = given.orch
        assert func.binds_float_scalars == binds_a_float_scalar(func), path.name
        fast, full = run_both_ways(run, given, OFF)
        assert fast == compiled == full, path.name
        runs += 1
        floats += func.binds_float_scalars
    return runs, floats


test_programs, test_shapes = corpus_tests(check)


def test_random_programs(tmp_path):
    checked = [check(random_file(tmp_path, seed, manual=seed % 2 == 1), refusals=True) for seed in range(60)]
    assert sum(runs for runs, _ in checked) >= 40


def test_both_values_are_met():
    from conftest import EXAMPLES_AND_GOLDEN

    met = {bool(check(path)[1]) for path in EXAMPLES_AND_GOLDEN}
    assert met == {True, False}
