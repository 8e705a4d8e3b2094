"""A TaskId seeded with None and read only as the init of a loop carry is folded into the carry
(the carry starts from ``PTO2TaskId::invalid()``): lower_to_emission's ``survey`` does not count
that read, so the seed is neither declared nor read in the C++."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES, GOLDEN, load_program, pass_inputs

import nanopass
from nanopass.passes.lower_to_emission import LowerToEmission
from nanopass.rewrite import PassContext


@pytest.mark.parametrize("path", [EXAMPLES / "manual_phases.py", GOLDEN / "array_carry_across_scope.py"],
                         ids=lambda p: p.stem)
def test_a_read_that_copies_nothing_is_not_counted(path):
    (given,) = pass_inputs(path, "lower_to_emission")
    lowering = LowerToEmission(PassContext())
    lowering.prepare(given)
    used, _ = lowering.survey(given.orch.body, {s.param for s in given.orch.slots})
    seeds = lowering.none_seeds
    assert seeds
    assert not seeds & used
    code = nanopass.generate_orchestration(load_program(path)).code
    for seed in seeds:
        assert f" {seed} = " not in code and f"({seed})" not in code
