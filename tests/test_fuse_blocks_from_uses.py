"""fuse_create_assemble_to_slice takes the facts its walks of the function gathered for
``dead_assembles`` and ``sequence`` from ``live_uses``' walk (``parts``: each block with the
positions of its assembles, its creates, whether a statement of it has bodies) instead of walks of
their own (``BLOCKS_FROM_USES``). Checked here: each block's entry holds what a walk of the block
finds; ``dead_assembles`` finds the same dead assembles, creates and placements from the entries
as from its own walk; with the shortcut forced off the pass gives the same output (or refusal) on
every example and golden program, the bench shapes, random programs and programs of the rows
grammar."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import corpus_tests, run_both_ways, same_fusion_on_random_and_rows
from test_fuse_cover_shortcut import fused
from test_fuse_liveness_enough import fuse_input
from test_fuse_shared_tables import analysed, blocks, inputs_and_overwritten

from nanopass.passes import assembled_rows
from nanopass.passes import fuse_create_assemble_to_slice as fuse
from nanopass.passes.util import BODY_FIELDS


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return inputs_and_overwritten(tmp_path_factory.mktemp("fuse_blocks_from_uses"))


def test_each_block_entry_holds_what_a_walk_of_the_block_finds(programs):
    assembles = nested = 0
    for program in programs:
        pass_ = analysed(program)
        for block in blocks(program.orch.body):
            entry = pass_.parts[id(block)]
            assert entry.stmts is block
            # (a walk of the block by hand: its assembles' positions; whether one statement has bodies)
            assert entry.assembles == [j for j, s in enumerate(block)
                                       if s._production == "Let" and s.value._production == "AssembleTensor"]
            assert entry.nested == any(s._production in BODY_FIELDS for s in block)
            assert entry.made == {s.var.name: j for j, s in enumerate(block)
                                  if s._production == "Let" and s.value._production == "CreateTensor"}
            assembles += len(entry.assembles)
            nested += entry.nested
    assert assembles > 0 and nested > 0


def test_the_dead_assembles_creates_and_placements_are_the_same_both_ways(programs):
    found = 0
    for program in programs:
        pass_ = analysed(program)
        args = (program.orch.body, pass_.kernels, pass_.roots, pass_.places, pass_.live)
        walked_fills, walked_creates, fills, creates = {}, {}, {}, {}
        walked = assembled_rows.dead_assembles(*args, walked_fills, walked_creates)
        assert assembled_rows.dead_assembles(*args, fills, creates, None, pass_.parts) == walked
        assert creates == walked_creates and fills == walked_fills
        found += len(walked)
    assert found > 0


def both_ways(path: Path):
    """The pass's output or refusal on ``path``'s input with the facts of ``live_uses``' walk and
    with walks of their own; None where the compile stops before the pass."""
    tree = fuse_input(path)
    return None if tree is None else run_both_ways(fused, tree, [(fuse, "BLOCKS_FROM_USES", False)])


def agrees(path: Path) -> None:
    got = both_ways(path)
    assert got is None or got[0] == got[1], path.name


test_examples_and_golden_programs, test_shapes = corpus_tests(agrees)


def test_the_shortcut_changes_no_fusion_of_random_and_rows_programs(tmp_path):
    # (30 programs of the rows grammar a size: a cheap test)
    same_fusion_on_random_and_rows(both_ways, tmp_path, 5320, count=30, least=50)
