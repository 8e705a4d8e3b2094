"""fuse_create_assemble_to_slice asks ``RemoveDeadValues.liveness`` for ``enough`` (the live names
that show every removable value live, when they do, without walking the expressions no effect
reads by name): every question the pass asks of the live set is whether a removable value (a
pure let, a loop carry, an if result) is live, which that set answers as the full one does. With
it forced off (``LIVENESS_ENOUGH``) the pass gives the same output (or the same refusal) on
every example and golden program, the bench shapes, random programs and programs of the rows
grammar; the shortcut is taken on the assembles shape (a smaller live set, the same answers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES_AND_GOLDEN, bench_file, load_program
from test_call_directions_in_one_loop import corpus
from test_fuse_cover_shortcut import fused

from nanopass.api import run_pipeline
from nanopass.errors import UserError
from nanopass.languages.statements import reusing_walks
from nanopass.passes import fuse_create_assemble_to_slice as fuse
from nanopass.passes.remove_dead_values import RemoveDeadValues
from nanopass.pipeline import PipelineError
from nanopass.rewrite import PassContext
from nanopass.tools.attack import rows as rows_grammar


def fuse_input(path: Path):
    try:
        stages = run_pipeline(load_program(path), stop_after="place_returned_creates_in_output_params")
    except (UserError, PipelineError):
        return None
    return stages[-1].tree


def both_ways(path: Path, monkeypatch):
    """The pass's output (or refusal) on its input in the compile of ``path``, with the shortcut
    and without; None when the compile stops before the pass."""
    tree = fuse_input(path)
    if tree is None:
        return None
    fast = fused(tree)
    with monkeypatch.context() as patch:
        patch.setattr(fuse, "LIVENESS_ENOUGH", False)
        slow = fused(tree)
    return fast, slow


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=[p.stem for p in EXAMPLES_AND_GOLDEN])
def test_the_shortcut_changes_no_fusion_of_examples_and_golden_programs(path: Path, monkeypatch):
    got = both_ways(path, monkeypatch)
    assert got is not None
    assert got[0] == got[1]


def test_the_shortcut_changes_no_fusion_of_shapes_random_and_rows_programs(tmp_path, monkeypatch):
    compared = refused = 0
    for path in corpus(tmp_path, 4020, rows_grammar, (2, 3), 120):
        got = both_ways(path, monkeypatch)
        if got is None:
            continue
        assert got[0] == got[1], path.name
        compared += 1
        refused += isinstance(got[0], str)
    assert compared >= 140 and refused < compared


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
