"""The check benchmark (``tools/bench_check.py``) times every phase of a check, nested as they
run, and leaves the check module as it found it."""

from __future__ import annotations

from nanopass.tools import bench_check, check
from nanopass.tools.runtime_model import model


def test_every_phase_of_a_check_is_timed_inside_the_phase_that_runs_it():
    figures = bench_check.measure("nested", 8, {"n": "1"})
    assert figures["tasks"] == 8 * 2 * 2 * 3 and figures["hazards"] == 0  # 8 calls in loops of 2, n, 2, 3
    rows = [(row["depth"], row["phase"]) for row in figures["phases"]]
    interprets = [name for depth, name in rows if name.startswith("interpret ")]
    assert len(interprets) == 3 and interprets[-1] == "interpret lower_to_emission"
    assert [row for row in rows if not row[1].startswith("interpret ")] == [
        (0, "compile"),
        (0, "check"),
        (1, "refinement (the program by reference)"),
        (2, "compare the program with reference"),
        (2, "runtime model"),
        (2, "runtime model"),
        (2, "hazards"),
        (2, "hazards"),
        (1, "compare reference with emission"),
        (1, "runtime model"),
        (1, "compile the program as written"),
        (1, "values (run as written, compare)"),
        (2, "compare values"),
        (1, "hazards"),
        (1, "report lines"),
    ]
    for row in figures["phases"]:
        assert row["seconds"] >= 0 and row["peak_kb"] > 0
    check_row = figures["phases"][1]
    assert check_row["peak_kb"] >= max(row["peak_kb"] for row in figures["phases"][2:])  # (it folds in its phases)
    assert check.model is model  # the timers are taken off again


def test_the_table_has_a_line_per_phase_and_a_total_per_size(capsys):
    assert bench_check.main(["--sizes", "4,8", "--set", "n=1"]) == 0
    out = capsys.readouterr().out
    assert "nested N=4 (n=1): 48 tasks, 0 hazards" in out and "nested N=8 (n=1): 96 tasks, 0 hazards" in out
    phases = [line.split()[:2] for line in out.splitlines()]
    assert sum(p[:1] == ["total"] for p in phases) == 2 and phases.count(["runtime", "model"]) == 2 * 3
