"""What ``derive_call_directions`` makes while it decides, counted on the bench shapes.

The buffers a written argument may be (``held_buffers``) are one set per distinct set of
``storage_map`` places, not one per name: ``reuses`` writes its ``y`` versions (a chain of InOut
tasks makes each from the one before, all the parameter's places) and two versions of each ``t``
(a task's result and the InOut task's after it, one buffer), so the sets made are far fewer than
the names asked about (before: one set, and one table entry, per name).
"""

from __future__ import annotations

from conftest import bench_file, pass_input

from nanopass.languages.terms import ParamDir
from nanopass.passes.derive_call_directions import DeriveCallDirections
from nanopass.passes.kernels import kernel_table
from nanopass.passes.util import iter_stmts


def written_names(tree) -> set[str]:
    """The names passed at a tensor parameter that is not In (those whose buffers are asked for)."""
    kernels = kernel_table(tree)
    names = set()
    for stmt in iter_stmts(tree.orch.body):
        if stmt._production != "Task":
            continue
        for arg, param in zip(stmt.args, kernels[stmt.kernel].params):
            if param.type._production == "TensorType" and param.dir is not ParamDir.In and arg.value._production == "Var":
                names.add(arg.value.name)
    return names


def test_one_held_set_per_distinct_places_on_the_reuses_shape(tmp_path):
    tree = pass_input(bench_file(tmp_path, "reuses", 200), "derive_call_directions")
    decided = DeriveCallDirections()
    decided.run(tree)
    asked = written_names(tree)
    distinct = {decided.store.get(name) or name for name in asked}
    assert len(decided.held) == len(distinct)
    assert 2 * len(decided.held) <= len(asked)  # (the versions of a buffer share one set)
    # each set is shared by every name with those places, and holds their roots
    for name in asked:
        places = decided.store.get(name)
        assert decided.held[places or name] == ({root for root, _ in places} if places else {name})
