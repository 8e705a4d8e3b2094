"""The instruction-count tool: it counts every phase of a compile (needs valgrind, as CI installs)."""

from __future__ import annotations

from conftest import EXAMPLES

from nanopass.tools import instructions


def test_every_phase_is_counted_and_the_ratio_reported(capsys):
    assert instructions.main([str(EXAMPLES / "basic.py")]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    for phase in ("load", "front", "convert_to_ssa", "lower_to_emission", "printer", "total", "ast.parse"):
        assert phase in rows, out
    ratio = float(out.strip().splitlines()[-1].split()[-1])
    assert 1 < ratio < 200
