"""``dead_assembles`` asks, of a target whose buffers are all created, whether a statement reads
a name stored in one of them; fuse_create_assemble_to_slice answers it per root
(``root_read``) from the statements at the live uses of the root's names, instead of a walk of
the function for every root read (``ROOT_READ_FROM_USES``). Checked here: for every created
buffer, ``root_read`` is the walk's answer (``read_names`` of every statement); the dead
assembles are the same both ways; with the shortcut forced off the pass gives the same output
(or refusal) on every example and golden program, the bench shapes, random programs and
programs of the rows grammar; and the walk is not made on the reuses shape."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import bench_file, corpus_tests, run_both_ways, same_fusion_on_random_and_rows
from test_fuse_cover_shortcut import fused
from test_fuse_liveness_enough import fuse_input
from test_fuse_shared_tables import analysed, inputs_and_overwritten

from nanopass.passes import assembled_rows
from nanopass.passes import fuse_create_assemble_to_slice as fuse
from nanopass.passes.util import iter_stmts


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return inputs_and_overwritten(tmp_path_factory.mktemp("fuse_root_read"))


def test_each_created_buffer_is_read_as_the_walk_finds(programs):
    read = unread = 0
    for program in programs:
        pass_ = analysed(program)
        walked = set()
        for stmt in iter_stmts(program.orch.body):
            for name in assembled_rows.read_names(stmt, pass_.kernels, pass_.live):
                walked.update(root for root, _ in pass_.places.get(name, ()))
        creates = {s.var.name for s in iter_stmts(program.orch.body)
                   if s._production == "Let" and s.value._production == "CreateTensor"}
        for root in creates:
            assert pass_.root_read(root) == (root in walked), (program.name, root)
            read += root in walked
            unread += root not in walked
    assert read > 0 and unread > 0


def test_the_dead_assembles_are_the_same_both_ways(programs):
    found = 0
    for program in programs:
        pass_ = analysed(program)
        args = (program.orch.body, pass_.kernels, pass_.roots, pass_.places, pass_.live)
        walked = assembled_rows.dead_assembles(*args)
        assert assembled_rows.dead_assembles(*args, root_read=pass_.root_read) == walked
        found += len(walked)
    assert found > 0


def both_ways(path: Path):
    """The pass's output or refusal on ``path``'s input with ``root_read`` and with the walk; None
    where the compile stops before the pass."""
    tree = fuse_input(path)
    return None if tree is None else run_both_ways(fused, tree, [(fuse, "ROOT_READ_FROM_USES", False)])


def agrees(path: Path) -> None:
    got = both_ways(path)
    assert got is None or got[0] == got[1], path.name


test_examples_and_golden_programs, test_shapes = corpus_tests(agrees)


def test_the_shortcut_changes_no_fusion_of_random_and_rows_programs(tmp_path):
    same_fusion_on_random_and_rows(both_ways, tmp_path, 4430)


def test_the_walk_is_not_made_on_the_reuses_shape(tmp_path, monkeypatch):
    calls = []
    original = assembled_rows.read_names

    def counting(stmt, *args):
        calls.append(stmt)
        return original(stmt, *args)

    monkeypatch.setattr(assembled_rows, "read_names", counting)
    tree = fuse_input(bench_file(tmp_path, "reuses", 24))
    fused(tree)
    assert not calls  # (``root_read`` asks the statements at its names' uses only)
    monkeypatch.setattr(fuse, "ROOT_READ_FROM_USES", False)
    fused(tree)
    assert len(calls) > 4 * 24 // 4  # (every statement walked)
