"""``live_uses``' walk records, for each block, its binders' positions, its creates' positions and
whether the block is plain (every statement's accesses are its live uses: no statement with
bodies or ``Yield``, no dead pure let): ``BlockUses``. fuse_create_assemble_to_slice reads the
names bound in a block from it, and takes a plain block's index of live uses as its index of
accesses without a walk of the block (``INDEX_FROM_USES``). Checked here: each block's
``bound`` and ``made`` are those a walk of its statements finds; a plain block's index is the
one ``_BlockIndex`` builds from the accesses; with the shortcut forced off the pass gives the
same output (or refusal) on every example and golden program, the bench shapes, random programs
and programs of the rows grammar; and the shortcut is taken on the reuses shape."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import bench_file, corpus_tests, run_both_ways, same_fusion_on_random_and_rows
from test_fuse_cover_shortcut import fused
from test_fuse_liveness_enough import fuse_input
from test_fuse_shared_tables import analysed, blocks, inputs

from nanopass.passes import fuse_create_assemble_to_slice as fuse
from nanopass.passes.assembled_rows import visible_binders


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return inputs(tmp_path_factory.mktemp("fuse_index_from_uses"))


def test_each_blocks_binders_and_creates_are_those_of_its_statements(programs):
    checked = 0
    for program in programs:
        pass_ = analysed(program)
        for block in blocks(program.orch.body):
            uses = pass_.parts[id(block)]
            bound, made = {}, {}
            for j, stmt in enumerate(block):
                for b in visible_binders(stmt):
                    bound[b.name] = j
                if stmt._production == "Let" and stmt.value._production == "CreateTensor":
                    made[stmt.var.name] = j
            assert (uses.bound, uses.made) == (bound, made)
            checked += bool(bound)
    assert checked > 0


def test_a_plain_blocks_index_is_the_one_built_from_the_accesses(programs):
    plain = not_plain = 0
    for program in programs:
        pass_ = analysed(program)
        for block in blocks(program.orch.body):
            uses = pass_.parts[id(block)]
            got, built = pass_.index_of(block), fuse._BlockIndex(block, pass_.live)
            assert (got.positions, got.made, got.mentioned) == (built.positions, built.made, built.mentioned)
            if uses.plain:
                plain += 1
                assert got is uses
                assert all(s._production != "Yield" and s._production not in fuse.BODY_FIELDS for s in block)
            else:
                not_plain += 1
                assert got is not uses
    assert plain > 0 and not_plain > 0


def both_ways(path: Path):
    tree = fuse_input(path)
    if tree is None:
        return None
    return run_both_ways(fused, tree, [(fuse, "INDEX_FROM_USES", False)])


def same_both_ways(path: Path) -> None:
    got = both_ways(path)
    if got is not None:
        assert got[0] == got[1]


test_examples_and_golden_programs, test_shapes = corpus_tests(same_both_ways)


def test_the_shortcut_changes_no_fusion_of_random_and_rows_programs(tmp_path):
    same_fusion_on_random_and_rows(both_ways, tmp_path, 4220)


def test_the_shortcut_is_taken_on_the_reuses_shape(tmp_path, monkeypatch):
    built = []
    original = fuse._BlockIndex.__init__

    def counting(self, *args, **kwargs):
        built.append(args[0])
        original(self, *args, **kwargs)

    monkeypatch.setattr(fuse._BlockIndex, "__init__", counting)
    tree = fuse_input(bench_file(tmp_path, "reuses", 24))
    fused(tree)
    assert not built
    monkeypatch.setattr(fuse, "INDEX_FROM_USES", False)
    fused(tree)
    assert built
