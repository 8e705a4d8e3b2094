"""dep-annotated, batched and hoisted share their node classes (their grammars are one: what a
language does not yet hold its invariants keep out), so ``batch_tensor_creates`` and
``hoist_scope_escapes`` hand on every statement they do not change: on a program with nothing
to batch or hoist, their output is their input."""

from __future__ import annotations

from conftest import bench_file, compiled_stages, stage_input

from nanopass.languages import BATCHED, DEP_ANNOTATED, HOISTED
from nanopass.languages.statements import iter_stmts
from nanopass.passes.batch_tensor_creates import BatchTensorCreates
from nanopass.passes.hoist_scope_escapes import HoistScopeEscapes
from nanopass.rewrite import PassContext


def inputs(tmp_path, shape: str):
    stages = compiled_stages(bench_file(tmp_path, shape, 8))
    return stage_input(stages, "batch_tensor_creates"), stage_input(stages, "hoist_scope_escapes")


def test_the_three_languages_share_every_node_class():
    assert DEP_ANNOTATED.nodes == BATCHED.nodes == HOISTED.nodes
    assert all(DEP_ANNOTATED.nodes[name] is cls for name, cls in HOISTED.nodes.items())


def test_nothing_to_batch_or_hoist_hands_the_tree_on(tmp_path):
    # nested: no create, no user scope
    before_batch, before_hoist = inputs(tmp_path, "nested")
    assert BatchTensorCreates(PassContext()).run(before_batch) is before_batch
    assert HoistScopeEscapes(PassContext()).run(before_hoist) is before_hoist


def test_batching_the_function_body_keeps_its_loops_and_ifs(tmp_path):
    # mixed: the creates are at the top level; the loops and ifs hold none
    before, _ = inputs(tmp_path, "mixed")
    after = BatchTensorCreates(PassContext()).run(before)
    compound = lambda tree: [s for s in iter_stmts(tree.orch.body) if s._production in ("For", "If")]  # noqa: E731
    kept = compound(before)
    assert kept and len(compound(after)) == len(kept)
    assert all(a is b for a, b in zip(compound(after), kept))
    assert after.orch.body is not before.orch.body
