"""carried's ``check_plans`` checks each plan node once (carries with the same plan share one
node, ``ClassifyIterArgCarry.plan``): every faulty plan is still refused, on the first carry that
holds it or on a later one, after a good tree passed and with nothing remembered."""

from __future__ import annotations

import pytest

from conftest import load_program
from test_dep_annotated_statement_kinds import replaced

from nanopass.api import run_pipeline
from nanopass.errors import VerifyError
from nanopass.languages import CARRIED as C
from nanopass.languages.carried import check_plans
from nanopass.languages.statements import iter_stmts, reusing_walks
from nanopass.tools.bench import source_of


def carried_tree(tmp_path):
    path = tmp_path / "nested.py"
    path.write_text(source_of("nested", 4))
    return run_pipeline(load_program(path))["classify_iter_arg_carry"].tree


def with_plan(tree, loop, plan):
    """``tree`` with the first carry of the loop ``loop`` given ``plan``."""
    it = loop.iters[0]
    return replaced(tree, loop, [loop.replace(iters=(it.replace(plan=plan),) + loop.iters[1:])])


BAD = [
    ((True, -1, False, 0), "array size cannot be negative"),
    ((False, 2, False, 2), "an array carry must be a rebind carry"),
    ((True, 0, True, 0), "a per-iteration carry needs an array"),
    ((True, 3, False, 2), "at least as many ids in the body"),
    ((False, 0, False, 1), "a carry with a variable of its own must be a rebind carry"),
]


@pytest.mark.parametrize("fields,message", BAD, ids=[m for _, m in BAD])
@pytest.mark.parametrize("which", ["first", "last"])
def test_a_faulty_plan_is_refused(tmp_path, fields, message, which):
    good = carried_tree(tmp_path)
    loops = [s for s in iter_stmts(good.orch.body) if s._production == "For"]
    shared = loops[0].iters[0].plan
    assert all(loop.iters[0].plan is shared for loop in loops)  # one node for every carry's plan
    for build in (C.Carry, C.Carry.make, C.Carry.make_trusted):  # (the rule every constructor runs)
        with pytest.raises(VerifyError, match=message):
            build(*fields)
    bad = with_plan(good, loops[0] if which == "first" else loops[-1], _unchecked_plan(*fields))
    with reusing_walks():
        C.verify(good)
        check_plans(good)
        with pytest.raises(VerifyError, match=message):
            check_plans(bad)
    with pytest.raises(VerifyError, match=message):
        check_plans(bad)


def _unchecked_plan(rebind, array, per_iteration, body):
    """A Carry built around its constructors (so its node rule): the plan a faulty builder would
    hand the walk."""
    node = C.Carry._builder()
    node.rebind, node.array, node.per_iteration, node.body, node.span = rebind, array, per_iteration, body, None
    node.__class__ = C.Carry
    return node


def test_the_constructors_prove_the_plans_so_the_pipeline_walks_no_tree_for_them():
    from nanopass.languages import ALL

    having = [language for language in ALL if check_plans in language.invariants]
    assert having and all(language.proves(check_plans) for language in having)
    assert all(language._checked_invariants.count(check_plans) == 0 for language in having)
