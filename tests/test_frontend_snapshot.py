"""``tools/frontend_snapshot.py``: the front end's output for every repository program, both ways of
reading a file, as one text that a restructuring of the front end must leave byte for byte the same."""

from __future__ import annotations

from nanopass.tools import frontend_snapshot


def test_the_snapshot_is_stable_and_a_change_is_reported(tmp_path, capsys):
    path = tmp_path / "snapshot.txt"
    assert frontend_snapshot.main(["--write", str(path), "--mutants", "3"]) == 0
    text = path.read_text()
    assert "### examples/basic.py [import]\nprogram Basic:\n(Program @6:0 Basic" in text
    assert "### examples/basic.py [no-exec]\n" in text and "### <mutant 0002> [no-exec]\n" in text
    assert str(tmp_path) not in text  # paths are relative, mutants named
    capsys.readouterr()
    assert frontend_snapshot.main(["--check", str(path), "--mutants", "3"]) == 0
    path.write_text(text.replace("(Return @30:8 [(Var @30:15 d)])", "(Return @30:8 [])", 1))
    assert frontend_snapshot.main(["--check", str(path), "--mutants", "3"]) == 1
    out = capsys.readouterr().out
    assert "-     (Return @30:8 [])]))" in out and "+     (Return @30:8 [(Var @30:15 d)])]))" in out
