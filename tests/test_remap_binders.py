"""remap_output_aliases lists the binders it names by node class (``RemapOutputAliases.binders``):
the same Binders, in the same order, as ``statements.binder_list(body, if_results_first=True)``,
on every example, golden program, bench shape and random program."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES_AND_GOLDEN, SHAPES, bench_file, pass_inputs, random_file

from nanopass.languages.statements import binder_list
from nanopass.passes.remap_output_aliases import RemapOutputAliases
from nanopass.rewrite import PassContext


def _check(path: Path) -> int:
    count = 0
    for given in pass_inputs(path, "remap_output_aliases"):
        func = given.orch
        ours = RemapOutputAliases(PassContext()).binders(func)
        reference = binder_list(func.body, if_results_first=True)
        assert len(ours) == len(reference) and all(a is b for a, b in zip(ours, reference)), path.name
        count += 1
    return count


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=lambda p: p.stem)
def test_the_binders_are_binder_lists_on_each_program(path: Path):
    _check(path)


def test_the_binders_are_binder_lists_on_the_shapes_and_random_programs(tmp_path):
    checked = sum(_check(bench_file(tmp_path, shape, 24)) for shape in SHAPES)
    assert checked == len(SHAPES)
    for seed in range(40):
        checked += _check(random_file(tmp_path, 3870 + seed, manual=seed % 3 == 1))
    assert checked >= len(SHAPES) + 25
