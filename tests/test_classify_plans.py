"""classify_iter_arg_carry makes one Carry node per plan and shares it among the carries and if
results of that plan: the program is the one a node per carry gives."""

from __future__ import annotations

from conftest import EXAMPLES, REPO, load_program

from nanopass.api import run_pipeline
from nanopass.language import walk
from nanopass.languages import CARRIED, SCOPED
from nanopass.passes.classify_iter_arg_carry import ClassifyIterArgCarry
from nanopass.rewrite import PassContext
from nanopass.tools.bench import source_of

PROGRAMS = sorted([*EXAMPLES.glob("*.py"), *(REPO / "tests" / "golden").glob("*.py")])


class ClassifyAPlanPerCarry(ClassifyIterArgCarry):
    def plan(self, rebind, array, per_iteration, body):
        return CARRIED.Carry(rebind, array, per_iteration, body)


def scoped_programs(tmp_path):
    for shape in ("nested", "scopes", "branches"):
        path = tmp_path / f"{shape}.py"
        path.write_text(source_of(shape, 40))
        yield path
    yield from PROGRAMS


def test_carries_of_one_plan_share_its_node_and_the_program_is_the_same(tmp_path):
    plans = carries = 0
    for path in scoped_programs(tmp_path):
        stages = run_pipeline(load_program(path), stop_after="classify_iter_arg_carry")
        scoped = next(s.tree for s in reversed(stages) if s.language is SCOPED)
        shared = ClassifyIterArgCarry(PassContext()).run(scoped)
        assert shared == ClassifyAPlanPerCarry(PassContext()).run(scoped), path.stem
        nodes = [n for n in walk(shared.orch.body) if n._production == "Carry"]
        assert len({id(n) for n in nodes}) == len(set(nodes)), path.stem  # one node per plan
        plans += len(set(nodes))
        carries += len(nodes)
    assert carries > 2 * plans  # (most carries share a plan)
