"""``fuse_create_assemble_to_slice`` reads each statement a bounded number of times, whatever the
program's length: the uses of a source after its assemble are found through an index of the
block's names, not by reading every later statement again for each assemble; and the proof that
nothing uses the rows after a write of a placed source (``rows_unused_from``) adds up accesses
indexed once per block and once per function, not walks of the whole function per write.

Counted on the benchmark's ``reuses`` shape (each tile written again after its assemble, so each
assemble takes both paths): the expression reads (``var_reads``, and ``stmt_reads``, which reads a
let or a task without a walk) the pass makes grow with the
program, not faster. Quadratic before: 40 -> 80 calls grew the reads 3.96x (1,430 -> 5,660); now
1.99x (233 -> 463)."""

from __future__ import annotations

from conftest import bench_file, counting, load_program
from nanopass.api import run_pipeline
from nanopass.passes import fuse_create_assemble_to_slice


def reads_of(tmp_path, monkeypatch, size: int) -> int:
    program = load_program(bench_file(tmp_path, "reuses", size))
    with monkeypatch.context() as patch:
        reads = counting(patch, fuse_create_assemble_to_slice, "var_reads")
        lets_and_tasks = counting(patch, fuse_create_assemble_to_slice, "stmt_reads")  # (the same reads, without a walk)
        run_pipeline(program, stop_after="fuse_create_assemble_to_slice")
    return len(reads) + len(lets_and_tasks)


def test_the_pass_reads_a_program_twice_as_long_at_most_about_twice_as_often(tmp_path, monkeypatch):
    small, large = reads_of(tmp_path, monkeypatch, 40), reads_of(tmp_path, monkeypatch, 80)
    assert small > 0
    assert large <= 2.2 * small, (small, large)


def test_rows_unused_from_asks_the_storage_only_of_a_name_accessed_outside_its_range(tmp_path, monkeypatch):
    """On the ``reuses`` shape every name stored in an assemble's target is accessed before the
    source's write only: ``rows_unused_from`` answers from the access counts, without asking
    whether any of those names' storage overlaps the rows (``overlaps``)."""
    program = load_program(bench_file(tmp_path, "reuses", 40))
    pass_class = fuse_create_assemble_to_slice.FuseCreateAssembleToSlice
    inside, asked, calls = [False], [], []
    original_rows_unused_from, original_overlaps = pass_class.rows_unused_from, fuse_create_assemble_to_slice.overlaps

    def rows_unused_from(self, *args):
        inside[0] = True
        try:
            calls.append(args)
            return original_rows_unused_from(self, *args)
        finally:
            inside[0] = False

    def overlaps(a, b):
        if inside[0]:
            asked.append((a, b))
        return original_overlaps(a, b)

    with monkeypatch.context() as patch:
        patch.setattr(pass_class, "rows_unused_from", rows_unused_from)
        patch.setattr(fuse_create_assemble_to_slice, "overlaps", overlaps)
        run_pipeline(program, stop_after="fuse_create_assemble_to_slice")
    assert len(calls) == 10  # (one per assemble: each tile is written again after it)
    assert asked == []
