"""classify_iter_arg_carry makes one Carry node per plan and shares it among the carries and if
results of that plan: the program is the one a node per carry gives."""

from __future__ import annotations

from conftest import EXAMPLES_AND_GOLDEN, pass_input, run_both_ways, running, sample_paths

from nanopass.language import walk
from nanopass.languages import CARRIED
from nanopass.passes.classify_iter_arg_carry import ClassifyIterArgCarry

# a node per carry: each carry's plan made anew
A_PLAN_PER_CARRY = [(ClassifyIterArgCarry, "plan",
                     lambda self, rebind, array, per_iteration, body: CARRIED.Carry(rebind, array, per_iteration, body))]


def test_carries_of_one_plan_share_its_node_and_the_program_is_the_same(tmp_path):
    plans = carries = 0
    for path in [*sample_paths(tmp_path, ("nested", "scopes", "branches"), 40), *EXAMPLES_AND_GOLDEN]:
        shared, per_carry = run_both_ways(running(ClassifyIterArgCarry), pass_input(path, "classify_iter_arg_carry"),
                                          A_PLAN_PER_CARRY)
        assert shared == per_carry, path.stem
        nodes = [n for n in walk(shared.orch.body) if n._production == "Carry"]
        assert len({id(n) for n in nodes}) == len(set(nodes)), path.stem  # one node per plan
        plans += len(set(nodes))
        carries += len(nodes)
    assert carries > 2 * plans  # (most carries share a plan)
