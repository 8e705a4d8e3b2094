"""tools/attack's figures count each refused program as its failing list classes it: a refusal of a
valid program fails (class ``refusal``, saved in DIR/refusal/) and is counted apart from the right
refusals. A run of seed 4931 printed ``refusals: 1`` (the wrong refusals only) next to ``refusals of
programs with no correct compilation: 1`` and listed r49310000024 as failing, which read as one
refusal, a right one, listed as failing; the right one was r49310000043."""

from __future__ import annotations

import json

from test_attack_grammars import _InlinePool

from nanopass.tools.attack import cli, generate, runner

WRONG = "prog.py:29:9: error: 't6' is used after it was assembled into 'f3'"
RIGHT = "prog.py:22:9: error: pl.assemble cannot make 't1' a view of 'a' (the runtime cannot copy): ..."


def result(name: str, refusal: str, right: str | None) -> dict:
    """What cli.work returns of a refused program (no runs)."""
    return {"name": name, "prog": None, "source": "", "classes": [] if right else ["refusal"], "failures": [],
            "refusal": refusal, "invalid": None, "right refusal": right, "runs": 0, "tasks": 0, "seconds": 0.0,
            "text": f"refused: {refusal}"}


def test_the_figures_split_the_refused_programs_as_the_failing_list_does(tmp_path, monkeypatch, capsys):
    results = iter([result("r49310000024", WRONG, None), result("r49310000043", RIGHT, "name")])
    monkeypatch.setattr(cli, "work", lambda name, prog, host_region: next(results))
    monkeypatch.setattr(cli, "ProcessPoolExecutor", _InlinePool)
    monkeypatch.setattr(cli, "_programs", lambda args: iter([("r49310000024", None), ("r49310000043", None)]))
    assert cli.main(["--seed", "4931", "--limit", "2", "--jobs", "1", "--out", str(tmp_path)]) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    figures = summary["figures"]
    # by hand: two refused programs, one wrong (failing, listed), one right (tied by name)
    assert figures["refused programs"] == 2
    assert figures["refusals of valid programs"] == 1 == summary["classes"]["refusal"] == figures["failing programs"]
    assert figures["refusals of programs with no correct compilation"] == 1 == figures["right refusals tied by name"]
    assert [p.name for p in (tmp_path / "refusal").iterdir()] == ["r49310000024.py"]
    out = capsys.readouterr().out
    assert "  refusals of valid programs: 1\n" in out and "  refused programs: 2\n" in out
    assert "refusals of valid programs, by message:\n         1  '…' is used after it was assembled into '…'" in out


def test_a_source_never_written_assembled_into_a_target_nothing_reads_and_one_read_compiles():
    # r49310000024: t6 is created (no init_value) and never written, assembled into rows 2..5 of
    # f3 and rows 0..3 of f4 (both runtime-allocated outputs of k1); f4 is read after, f3 never.
    # The tester's semantics (semantics.py): t6's rows are undefined (UNDEF: any value is right)
    # and only one region's assembled values are used, so t6 placed in f4 is a correct
    # compilation. The compiler refused the second assemble as a use of t6 after the first until
    # the assemble into the unread runtime-allocated output f3 was dropped, as one into a created
    # target nothing reads is (assembled_rows.dead_assembles; tools/attack/found 62).
    rep = runner.check(generate.generate(49310000024, None))
    assert rep.refusal is None and rep.runs > 0
    assert rep.classes() == set(), runner.describe(rep)


def test_a_source_made_with_an_init_value_assembled_into_a_parameter_is_a_right_refusal():
    # r49310000043: the placed source would be a view nothing fills (docs/semantics.md, "Refused")
    rep = runner.check(generate.generate(49310000043, None))
    assert rep.refusal is not None and "pl.assemble cannot make 't1' a view of 'a'" in rep.refusal
    assert rep.refusal_check() == "name" and rep.classes() == set()


def test_refusals_of_one_kind_are_one_row_whatever_their_names_and_lines(tmp_path, monkeypatch, capsys):
    # (the message of a source that may be several buffers names their lines: masked as names are)
    several = ("prog.py:{}:9: error: pl.assemble needs a source made by pl.create_tensor, the same one on every "
               "path; '{}' may be 't' (the pl.create_tensor of line {}) or 'u' (the pl.create_tensor of line {}) here")
    results = iter([result("r1", several.format(30, "t", 20, 21), None), result("r2", several.format(31, "u", 16, 17), None)])
    monkeypatch.setattr(cli, "work", lambda name, prog, host_region: next(results))
    monkeypatch.setattr(cli, "ProcessPoolExecutor", _InlinePool)
    monkeypatch.setattr(cli, "_programs", lambda args: iter([("r1", None), ("r2", None)]))
    assert cli.main(["--seed", "1", "--limit", "2", "--jobs", "1", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert ("refusals of valid programs, by message:\n         2  pl.assemble needs a source made by pl.create_tensor, "
            "the same one on every path; '…' may be '…' (the pl.create_tensor of line …) or '…' (the "
            "pl.create_tensor of line …) here\n") in out, out
