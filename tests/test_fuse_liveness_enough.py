"""fuse_create_assemble_to_slice asks ``RemoveDeadValues.liveness`` for ``enough`` (the live names
that show every removable value live, when they do, without walking the expressions no effect
reads by name): every question the pass asks of the live set is whether a removable value (a
pure let, a loop carry, an if result) is live, which that set answers as the full one does. With
it forced off (``LIVENESS_ENOUGH``) the pass gives the same output (or the same refusal) on
every example and golden program, the bench shapes, random programs and programs of the rows
grammar; the shortcut is taken on the assembles shape (a smaller live set, the same answers)."""

from __future__ import annotations

from pathlib import Path

from conftest import bench_file, corpus_tests, load_program, run_both_ways, same_fusion_on_random_and_rows
from test_fuse_cover_shortcut import fused

from nanopass.api import run_pipeline
from nanopass.errors import UserError
from nanopass.languages.statements import reusing_walks
from nanopass.passes import fuse_create_assemble_to_slice as fuse
from nanopass.passes.remove_dead_values import RemoveDeadValues
from nanopass.pipeline import PipelineError
from nanopass.rewrite import PassContext


def fuse_input(path: Path):
    try:
        stages = run_pipeline(load_program(path), stop_after="place_returned_creates_in_output_params")
    except (UserError, PipelineError):
        return None
    return stages[-1].tree


def both_ways(path: Path):
    """The pass's output (or refusal) on its input in the compile of ``path``, with the shortcut
    and without; None when the compile stops before the pass."""
    tree = fuse_input(path)
    if tree is None:
        return None
    return run_both_ways(fused, tree, [(fuse, "LIVENESS_ENOUGH", False)])


def same_both_ways(path: Path) -> None:
    fast, slow = both_ways(path)
    assert fast == slow


test_examples_and_golden_programs, test_shapes = corpus_tests(same_both_ways)


def test_the_shortcut_changes_no_fusion_of_random_and_rows_programs(tmp_path):
    same_fusion_on_random_and_rows(both_ways, tmp_path, 4020)


def test_the_live_set_is_smaller_with_it_and_answers_every_removable_value_the_same(tmp_path, monkeypatch):
    # the assembles shape: the assembles' values (effects read through expressions) are not walked
    tree = fuse_input(bench_file(tmp_path, "assembles", 24))
    live = {}
    for enough in (True, False):
        monkeypatch.setattr(fuse, "LIVENESS_ENOUGH", enough)
        pass_ = fuse.FuseCreateAssembleToSlice(PassContext())
        with reusing_walks():
            pass_.run(tree)
        live[enough] = pass_.live
    full, removable = RemoveDeadValues.liveness(tree.orch.body)
    assert live[False] == full
    assert len(live[True]) < len(full)
    assert {n for n in removable if n in live[True]} == {n for n in removable if n in full} == removable
