"""The instruction-count tool: it counts every phase of a compile. Needs valgrind (.ci/run
installs it); skipped, with the reason, without it."""

from __future__ import annotations

import shutil

import pytest

from conftest import EXAMPLES

from nanopass.tools import instructions


def test_every_phase_is_counted_and_the_ratio_reported(capsys):
    if not shutil.which("valgrind"):
        pytest.skip("valgrind is not installed (apt-get install valgrind; .ci/run installs it)")
    assert instructions.main([str(EXAMPLES / "basic.py")]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    for phase in ("load", "front", "convert_to_ssa", "lower_to_emission", "printer", "total", "ast.parse"):
        assert phase in rows, out
    ratio = float(out.strip().splitlines()[-1].split()[-1])
    assert 1 < ratio < 200


def test_the_cache_model_reports_misses_and_estimated_cycles_per_phase(capsys):
    if not shutil.which("valgrind"):
        pytest.skip("valgrind is not installed (apt-get install valgrind; .ci/run installs it)")
    assert instructions.main([str(EXAMPLES / "basic.py"), "--cache"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.startswith("  ")}
    for phase in ("load", "front", "passes", "verification", "printer", "compile", "ast.parse"):
        assert phase in rows, out
    ir, first, last, cycles = (float(v) for v in rows["compile"][-4:])
    assert ir > 1 and first > last >= 0 and 1 <= cycles < 100, out
    assert "x its estimated cycles" in out.splitlines()[-1], out
