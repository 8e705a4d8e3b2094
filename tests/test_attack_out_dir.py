"""A run of tools/attack owns its --out DIR: a second run into the same DIR removes the files the
first one saved there (its failing programs, lean figures, summary) before it saves its own, and
leaves the user's files alone. A second run used to leave the first run's DIR/<class>/ programs
beside its own, as if it had found them."""

from __future__ import annotations

import json

from test_attack_grammars import _InlinePool

from nanopass.tools.attack import cli


def result(name: str, refused: bool) -> dict:
    """What cli.work returns of a program: refused when valid (class ``refusal``), or passing."""
    return {"name": name, "prog": None, "source": "# program\n", "classes": ["refusal"] if refused else [],
            "failures": [], "refusal": "prog.py:3:1: error: refused" if refused else None, "invalid": None,
            "right refusal": None, "runs": 0 if refused else 6, "tasks": 0, "seconds": 0.0, "text": name,
            "lean": {"programs with edges": 1}}


def run(out, monkeypatch, results: list[dict]) -> dict:
    given = iter(results)
    monkeypatch.setattr(cli, "work", lambda name, prog, host_region: next(given))
    monkeypatch.setattr(cli, "ProcessPoolExecutor", _InlinePool)
    monkeypatch.setattr(cli, "_programs", lambda args: iter([(r["name"], None) for r in results]))
    assert cli.main(["--seed", "1", "--limit", str(len(results)), "--jobs", "1", "--out", str(out)]) == 0
    return json.loads((out / "summary.json").read_text())


def test_a_second_run_into_one_dir_leaves_only_its_own_files_and_the_users(tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n")
    first = run(out, monkeypatch, [result("r1", True), result("r2", True)])
    assert first["figures"]["failing programs"] == 2
    assert sorted(p.name for p in (out / "refusal").iterdir()) == ["r1.py", "r2.py"]
    (out / "refusal" / "kept.txt").write_text("mine too\n")  # the user's file in a folder the run made
    second = run(out, monkeypatch, [result("r3", False), result("r4", True)])
    assert second["figures"]["programs"] == 2 and second["figures"]["failing programs"] == 1
    assert sorted(p.name for p in (out / "refusal").iterdir()) == ["kept.txt", "r4.py"]
    assert (out / "lean.txt").read_text().splitlines() == ["r3: programs with edges 1", "r4: programs with edges 1"]
    assert (out / "notes.txt").read_text() == "mine\n"
    # a third run that saves no program removes the folder the second left only its files in
    (out / "refusal" / "kept.txt").unlink()
    run(out, monkeypatch, [result("r5", False)])
    assert sorted(p.name for p in out.iterdir()) == [".nanopass-attack", "lean.txt", "notes.txt", "summary.json"]
