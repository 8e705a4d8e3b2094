"""Buffer roots are computed once, by classify_iter_arg_carry, and read from the IR after.

``Function.buffer_groups`` (carried to hoisted) lists every variable that names another's
storage, grouped by that storage's root. The
passes between carried and hoisted add TaskIds, batch creates and declare values, none of which
changes what storage a variable names: on every example and golden program the list each of
those stages carries equals ``buffer_roots`` computed afresh on that stage's tree. The passes
after classify_iter_arg_carry read the list and compute no roots of their own (counted), and the
carried language rejects groups whose roots are not final.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES, EXAMPLES_AND_GOLDEN, bench_file, compiled_stages, counting, load_program, pass_input

from nanopass.api import run_pipeline
from nanopass.errors import VerifyError
from nanopass.languages import CARRIED, HOISTED, NAMED
from nanopass.passes import aliases, hoist_scope_escapes, remap_output_aliases
from nanopass.passes.aliases import buffer_roots, written_roots
from nanopass.passes.kernels import kernel_table
from nanopass.passes.util import iter_stmts

CARRYING = ("classify_iter_arg_carry", "infer_core_types", "assign_kernel_ids", "classify_tensors",
            "bind_task_ids", "resolve_dep_edges", "batch_tensor_creates", "hoist_scope_escapes")


def aliases_of(tree) -> dict[str, str]:
    """The non-trivial buffer roots of ``tree``'s function, computed afresh."""
    roots = buffer_roots(tree.orch, kernel_table(tree), lambda it: not it.plan.rebind)
    return {name: root for name, root in roots.items() if name != root}


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=[p.stem for p in EXAMPLES_AND_GOLDEN])
def test_written_roots_are_the_roots_of_every_stage_that_carries_them(path: Path):
    stages = compiled_stages(path)
    for name in CARRYING:
        tree = stages[name].tree
        assert written_roots(tree.orch) == aliases_of(tree), name
    assert "buffer_groups" not in stages["remap_output_aliases"].tree.orch._fields


def test_some_program_has_aliases():
    # (the test above would hold trivially if no program had an alias)
    stages = compiled_stages(EXAMPLES / "basic.py")
    assert written_roots(stages["classify_iter_arg_carry"].tree.orch)


def test_passes_after_classify_compute_no_roots(tmp_path, monkeypatch):
    # (in each module a pass could call it through: a pass calls its own import)
    records = [counting(monkeypatch, aliases, "buffer_roots")]
    for module in (hoist_scope_escapes, remap_output_aliases):
        if hasattr(module, "buffer_roots"):
            records.append(counting(monkeypatch, module, "buffer_roots"))
    stages = run_pipeline(load_program(bench_file(tmp_path, "scopes", 8)))  # user scopes: hoist_scope_escapes does its work
    assert all(calls == [] for calls in records)
    hoisted = stages["hoist_scope_escapes"].tree
    assert hoisted.orch.buffer_groups and written_roots(hoisted.orch) == aliases_of(hoisted)
    assert NAMED.is_program(stages["remap_output_aliases"].tree)


def with_groups(tree, groups):
    func = tree.orch
    return tree.replace(orch=func.replace(buffer_groups=tuple(CARRIED.BufferGroup.make(r, a) for r, a in groups)))


@pytest.mark.parametrize(
    "groups",
    [
        [("a", ("b", "b"))],  # an alias listed twice
        [("a", ("b",)), ("c", ("b",))],  # an alias of two roots
        [("a", ("b",)), ("b", ("c",))],  # a root that is itself an alias: not final
        [("a", ())],  # a group without aliases
    ],
)
def test_carried_rejects_groups_whose_roots_are_not_final(groups):
    stages = compiled_stages(EXAMPLES / "basic.py")
    for name, language in (("classify_iter_arg_carry", CARRIED), ("hoist_scope_escapes", HOISTED)):
        tree = stages[name].tree
        language.verify(tree)
        with pytest.raises(VerifyError, match="buffer group"):
            language.verify(with_groups(tree, groups))


def test_the_roots_walk_enters_each_branch_once_not_once_more_for_its_scope(tmp_path):
    # (the walk calls itself for each body it walks: a branch that is one scope is walked as the
    # scope's body, without a call for the scope; counted on the bench's branches shape, whose
    # branches are each one compiler scope)
    tree = pass_input(bench_file(tmp_path, "branches", 40), "classify_iter_arg_carry")
    ifs = [s for s in iter_stmts(tree.orch.body) if s._production == "If"]
    assert ifs and all(len(s.then) == 1 and s.then[0]._production == "Scope" for s in ifs)
    calls = []

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_name == "body" and frame.f_code.co_filename == aliases.__file__:
            calls.append(frame)

    sys.setprofile(profile)
    try:
        roots = buffer_roots(tree.orch, kernel_table(tree))
    finally:
        sys.setprofile(None)
    assert len(roots) > len(ifs)
    assert len(calls) <= 2 * len(ifs) + 2, (len(calls), len(ifs))  # (the function's body, its scope, two per if)
