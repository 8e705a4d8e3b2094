"""lower_to_emission's ``survey`` leaves unread the reads of a statement met while every name
asked so far is known read (``IDLE_READS_SKIPPED``): such a statement reads only names defined
before it, each asked about where it is defined. Forced off (every statement's reads read), the
emission is the same on every example and golden program, the bench shapes and random programs;
on the mixed shape the shortcut is taken (loop variables read only by idle statements are left out)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES_AND_GOLDEN, SHAPES, bench_file, pass_runs, run_both_ways, running, sample_paths

from nanopass.passes import lower_to_emission
from nanopass.passes.lower_to_emission import LowerToEmission
from nanopass.rewrite import PassContext

FORCED_OFF = [(lower_to_emission, "IDLE_READS_SKIPPED", False)]


def lowered_both_ways(path: Path, refusals: bool = False) -> list[tuple]:
    out = []
    for given, compiled in pass_runs(path, "lower_to_emission", refusals=refusals):
        fast, full = run_both_ways(running(LowerToEmission), given, FORCED_OFF)
        assert fast == compiled
        out.append((fast, full))
    return out


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=[p.stem for p in EXAMPLES_AND_GOLDEN])
def test_the_shortcut_changes_no_emission(path: Path):
    ((fast, full),) = lowered_both_ways(path)
    assert fast == full


def test_the_shortcut_changes_no_emission_of_a_shape_or_random_program(tmp_path):
    compiled = 0
    for path in sample_paths(tmp_path, SHAPES, 24, range(4430, 4470), manual=lambda seed: seed % 3 == 1):
        for fast, full in lowered_both_ways(path, refusals=path.name.startswith("random_")):
            assert fast == full, path.name
            compiled += 1
    assert compiled >= len(SHAPES) + 30


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
