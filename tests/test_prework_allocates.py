"""``hazards.prework``'s ``allocates`` (a create, an ``Alloc`` or a task output the runtime
allocates) is what ``allocations.makes_allocations`` says, on the input of order_write_after_read
for every example, golden and found program, the benchmark's shapes and random programs (AUTO and
MANUAL): ``find_hazards`` asks ``carried_allocations`` only of a function that makes one, and
without one there is none to carry. ``allocates`` is also True where prework has no storage map.
"""

from __future__ import annotations

import pytest

from conftest import CORPUS, bench_file, pass_inputs, random_file, SHAPES

from nanopass.passes.allocations import makes_allocations
from nanopass.passes.hazards import NONE, _prework, carried_allocations, prework, storage_map
from nanopass.passes.kernels import kernel_table

PASS = "order_write_after_read"


def check(path) -> int:
    """Asserts ``allocates`` agrees on each program of ``path``; how many functions made none."""
    without = 0
    for program in pass_inputs(path, PASS):
        func, kernels = program.orch, kernel_table(program)
        scan = prework(func, storage_map(func, kernels))
        assert scan.allocates == makes_allocations(func, kernels), path.name
        if not scan.allocates:
            without += 1
            assert carried_allocations(func, kernels) == NONE
        assert _prework(func.body, None, None).allocates  # (not known without a storage map)
    return without


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_allocates_is_makes_allocations(path):
    check(path)


@pytest.mark.parametrize("shape", SHAPES)
def test_allocates_is_makes_allocations_on_the_shapes(tmp_path, shape):
    check(bench_file(tmp_path, shape, 24))


@pytest.mark.parametrize("seed", range(24))
def test_allocates_is_makes_allocations_on_random_programs(tmp_path, seed):
    check(random_file(tmp_path, 38300 + seed, manual=seed % 2 == 1))


def test_the_scopes_shape_makes_no_allocation(tmp_path):
    """(The shortcut is taken: the scopes shape's loops carry a tensor but make no buffer.)"""
    assert check(bench_file(tmp_path, "scopes", 24)) == 1
