"""lower_to_emission's ``survey`` leaves unread the reads of a statement met while every name
asked so far is known read (``IDLE_READS_SKIPPED``): such a statement reads only names defined
before it, each asked about where it is defined. Forced off (every statement's reads read), the
emission is the same on every example and golden program, the bench shapes and random programs;
on the mixed shape the shortcut is taken (loop variables read only by idle statements are left out)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import bench_file, corpus_tests, pass_inputs, pass_runs, random_file, run_both_ways, running

from nanopass.passes import lower_to_emission
from nanopass.passes.lower_to_emission import LowerToEmission
from nanopass.rewrite import PassContext

FORCED_OFF = [(lower_to_emission, "IDLE_READS_SKIPPED", False)]


def check(path: Path) -> int:
    """The pass's output on its inputs from ``path``, with the shortcut and forced off, is one."""
    runs = 0
    for given in pass_inputs(path, "lower_to_emission"):
        fast, full = run_both_ways(running(LowerToEmission), given, FORCED_OFF)
        assert fast == full, path.name
        runs += 1
    return runs


test_programs, test_shapes = corpus_tests(check)


def test_random_programs(tmp_path):
    assert sum(check(random_file(tmp_path, seed, seed % 3 == 1)) for seed in range(4430, 4470)) >= 30


def test_the_mixed_shape_leaves_the_reads_of_its_idle_statements_unread(tmp_path):
    ((given, _),) = pass_runs(bench_file(tmp_path, "mixed", 24), "lower_to_emission")
    func = given.orch
    asked = {s.param for s in func.slots}

    def used(skipped: bool) -> set[str]:
        lowering = LowerToEmission(PassContext())
        lowering.prepare(given)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(lower_to_emission, "IDLE_READS_SKIPPED", skipped)
            return lowering.survey(func.body, asked)[0]

    fast, full = used(True), used(False)
    assert fast < full  # (loop variables, read by idle statements only)
