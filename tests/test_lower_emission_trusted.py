"""lower_to_emission builds its nodes with ``make_trusted`` (the claim is in the module): with
the checks on (``trusted_checked``) it lowers every example, golden program, bench shape and
random program to the same tree, and a value of the wrong kind is refused there."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES_AND_GOLDEN, SHAPES, bench_file, pass_inputs, random_file, running

from nanopass.errors import GrammarError
from nanopass.language import trusted_checked
from nanopass.languages import EMISSION
from nanopass.passes.lower_to_emission import LowerToEmission


def _both_ways(path: Path) -> int:
    run = running(LowerToEmission)
    count = 0
    for given in pass_inputs(path, "lower_to_emission"):
        fast = run(given)
        with trusted_checked():
            checked = run(given)
        assert fast == checked, path.name
        count += 1
    return count


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=lambda p: p.stem)
def test_the_trusted_lowering_is_the_checked_one_on_each_program(path: Path):
    _both_ways(path)


def test_the_trusted_lowering_is_the_checked_one_on_the_shapes_and_random_programs(tmp_path):
    lowered = sum(_both_ways(bench_file(tmp_path, shape, 24)) for shape in SHAPES)
    assert lowered == len(SHAPES)
    for seed in range(30):
        lowered += _both_ways(random_file(tmp_path, 3860 + seed, manual=seed % 3 == 1))
    assert lowered >= len(SHAPES) + 20


def test_a_wrong_value_is_refused_with_the_checks_on():
    with trusted_checked(), pytest.raises(GrammarError):
        EMISSION.TaskArgs.make_trusted(True, "Task 0: k", "params_t0", [None], ["x"], [], [])


@pytest.mark.parametrize("pass_name", ["remap_output_aliases", "define_dynamic_dim_symbols", "encode_scalars"])
def test_the_trusted_functions_of_the_naming_passes_are_the_checked_ones(tmp_path, pass_name):
    """remap_output_aliases, define_dynamic_dim_symbols and encode_scalars build their Function
    unchecked (``make_trusted``): with the checks on they make the same trees."""
    from nanopass.passes.pipeline import PASSES

    (pass_cls,) = [p for p in PASSES if p.name == pass_name]
    run = running(pass_cls)
    paths = [*EXAMPLES_AND_GOLDEN, *(bench_file(tmp_path, shape, 24) for shape in SHAPES)]
    paths += [random_file(tmp_path, 3900 + seed, manual=seed % 3 == 1) for seed in range(20)]
    compared = 0
    for path in paths:
        for given in pass_inputs(path, pass_name):
            fast = run(given)
            with trusted_checked():
                checked = run(given)
            assert fast == checked, path.name
            compared += 1
    assert compared >= len(paths) - 10
