"""``tools/scale_hunt.py``: per-phase cost per line at two sizes, and their ratio (growth)."""

from __future__ import annotations

from nanopass.tools import scale_hunt
from nanopass.tools.scale_hunt import Tally, growth_rows


def tallies() -> tuple[Tally, Tally]:
    # 1000 lines -> 4000 lines: a linear phase costs 4x the seconds, a quadratic one 16x
    small = Tally(1000, {"linear": 0.10, "quadratic": 0.02, "noise": 0.0001})
    large = Tally(4000, {"linear": 0.40, "quadratic": 0.32, "noise": 0.0004})
    return small, large


def test_growth_is_the_cost_per_line_ratio_largest_first_without_noise():
    rows = growth_rows(*tallies())
    assert [name for _, name, _, _ in rows] == ["quadratic", "linear"]  # (noise: under 0.5 % of the total)
    growth, _, per_kline_small, per_kline_large = rows[0]
    assert abs(growth - 4.0) < 1e-9
    assert abs(per_kline_small - 20.0) < 1e-9 and abs(per_kline_large - 80.0) < 1e-9
    assert abs(rows[1][0] - 1.0) < 1e-9


def test_fail_above_names_the_phases_that_grow_faster(monkeypatch, capsys):
    monkeypatch.setattr(scale_hunt, "hunt", lambda *args: (*tallies(), 1))
    assert scale_hunt.main(["--generator", "attack", "--fail-above", "2"]) == 1
    out, err = capsys.readouterr()
    assert "(1 refused)" in out and "quadratic" in out
    assert "growing more than 2.0x: quadratic" in err
    assert scale_hunt.main(["--generator", "attack", "--fail-above", "5"]) == 0


def test_a_bench_shape_compiles_at_both_sizes(capsys):
    assert scale_hunt.main(["--generator", "straight", "--sizes", "20,80"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("straight, 1 programs (0 refused)")
    assert "convert_to_ssa" in out and "total" in out


def test_bad_arguments_are_refused_with_a_message(capsys):
    for argv in (["--generator", "nope"], ["--sizes", "80"], ["--sizes", "320,80"], ["--seeds", "3"]):
        try:
            scale_hunt.main(argv)
        except SystemExit as exit:
            assert exit.code == 2
        else:
            raise AssertionError(argv)
    assert "unknown generator 'nope'" in capsys.readouterr().err
