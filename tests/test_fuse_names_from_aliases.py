"""fuse_create_assemble_to_slice asks a source made with an ``init_value`` for the names whose
buffer root it is (``names_of``); it picks them out of ``aliases_of`` (a root's names and the
names stored in it) instead of making ``named``, ``buffer_roots``' table turned round, a walk of
every name (``NAMES_FROM_ALIASES``). Checked here: for every root of every analysed program,
``names_of`` is the turned table's entry, made independently here from ``roots``; the pass
gives the same output (or refusal) with the shortcut forced off, on every example and golden
program, the bench shapes, random programs and programs of the rows grammar; and the table is
not made on the reuses shape."""

from __future__ import annotations

from pathlib import Path

from conftest import bench_file, corpus_tests, run_both_ways, same_fusion_on_random_and_rows
from test_fuse_cover_shortcut import fused
from test_fuse_liveness_enough import fuse_input
import test_fuse_root_read
from test_fuse_shared_tables import analysed

from nanopass.passes import fuse_create_assemble_to_slice as fuse

programs = test_fuse_root_read.programs  # the fixture, for the test below


def test_each_root_names_what_the_turned_table_names(programs):
    asked = 0
    for program in programs:
        pass_ = analysed(program)
        turned: dict[str, set[str]] = {}  # (buffer_roots' table turned round, written out here)
        for name, root in pass_.roots.items():
            turned.setdefault(root, set()).add(name)
        for root in {*pass_.roots.values(), *pass_.aliases_of}:
            assert pass_.names_of(root) == turned.get(root, set()), (program.name, root)
            asked += 1
        assert pass_._named is None  # (asking made no table)
    assert asked > 0


def both_ways(path: Path):
    """The pass's output or refusal on ``path``'s input with ``names_of`` picking out of
    ``aliases_of`` and with the turned table; None where the compile stops before the pass."""
    tree = fuse_input(path)
    return None if tree is None else run_both_ways(fused, tree, [(fuse, "NAMES_FROM_ALIASES", False)])


def agrees(path: Path) -> None:
    got = both_ways(path)
    assert got is None or got[0] == got[1], path.name


test_examples_and_golden_programs, test_shapes = corpus_tests(agrees)


def test_the_shortcut_changes_no_fusion_of_random_and_rows_programs(tmp_path):
    same_fusion_on_random_and_rows(both_ways, tmp_path, 5220)


def test_the_table_is_not_made_on_the_reuses_shape(tmp_path, monkeypatch):
    made = []
    original = fuse._names_by_root

    def counting(roots):
        made.append(len(roots))
        return original(roots)

    monkeypatch.setattr(fuse, "_names_by_root", counting)
    tree = fuse_input(bench_file(tmp_path, "reuses", 24))
    fused(tree)
    assert not made  # (every source is made with an init_value: names_of answers each)
    monkeypatch.setattr(fuse, "NAMES_FROM_ALIASES", False)
    fused(tree)
    assert made
