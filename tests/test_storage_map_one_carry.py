"""``storage_map``'s path for a loop of one tensor carry (``walk_storage``, taken with its loop
shortcuts: no lists of carries, inits and yields; carries of other types beside it) gives the map the general path gives, on the
benchmark's shapes, the examples and golden programs and random programs; and the programs take
both its cases (a trip count unknown, a result that is the last iteration's yield). ``place_returned_creates_in_output_params`` skips a candidate
one of whose buffers is a parameter's without listing the creates: no parameter is a create's."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES_AND_GOLDEN, SHAPES, bench_file, pass_inputs, random_file, run_both_ways
from nanopass.passes import hazards
from nanopass.passes.kernels import kernel_table
from nanopass.passes.util import iter_stmts, last_yield

PLACE = "place_returned_creates_in_output_params"


def programs(tmp_path) -> list:
    paths = [*EXAMPLES_AND_GOLDEN, *(bench_file(tmp_path, shape, 6) for shape in SHAPES)]
    paths += [random_file(tmp_path, seed) for seed in range(40)]
    return [program for path in paths for program in pass_inputs(path, PLACE)]


def one_carry_cases(program) -> set[str]:
    """The cases of the one-carry path the loops of ``program`` take (and "beside": a loop whose
    one tensor carry has carries of other types beside it, a TaskId's, as the scopes shape's)."""
    cases = set()
    for stmt in iter_stmts(program.orch.body):
        if stmt._production not in ("For", "While"):
            continue
        tensors = [k for k, it in enumerate(stmt.iters) if it.var.type._production == "TensorType"]
        if len(tensors) != 1:
            continue
        if len(stmt.iters) > 1:
            cases.add("beside")
        it = stmt.iters[tensors[0]]
        runs = hazards.trip_count(stmt) or 0
        yld = last_yield(stmt.body)
        y = yld.values[tensors[0]] if yld is not None else None
        if not runs:
            cases.add("unknown")
        elif runs > 1:
            cases.add("itself" if y is not None and y._production == "Var" and y.name == it.var.name else "last")
    return cases


def test_the_one_carry_path_gives_the_general_map(tmp_path):
    cases = set()
    for program in programs(tmp_path):
        taken, full = run_both_ways(lambda p: hazards._storage_map(p.orch, kernel_table(p)), program,
                                    [(hazards, "LOOP_SHORTCUTS", False)])
        assert taken == full
        cases |= one_carry_cases(program)
    assert {"unknown", "last", "beside"} <= cases, cases


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=lambda p: p.stem)
def test_no_parameter_is_bound_by_a_create(path):
    for program in pass_inputs(path, PLACE):
        params = {p.name for p in program.orch.params}
        for stmt in iter_stmts(program.orch.body):
            if stmt._production == "Let" and stmt.value._production == "CreateTensor":
                assert stmt.var.name not in params
