"""``nanopass check FILE --dump-all DIR`` runs the interpreter once per stage tree: the same run
serves ``hazards.txt`` (``tools.check.stage_report``), the report's instance graphs and hazards
(``tools.instances.StageRuns``) and the check of the first set of values (``check_stages``)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from nanopass.cli import main
from nanopass.languages import EMISSION
from nanopass.tools import check

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_check_with_dump_all_interprets_each_stage_tree_once(tmp_path, monkeypatch, capsys):
    runs: Counter = Counter()
    trees = []  # held, so that no tree's id is reused during the run
    interpret = check.trace_of

    def counted(stage, inputs):
        trees.append(stage.tree)
        runs[(id(stage.tree), stage.language is EMISSION, inputs)] += 1
        return interpret(stage, inputs)

    monkeypatch.setattr(check, "trace_of", counted)
    dump = tmp_path / "dump"
    code = main(["check", str(EXAMPLES / "loop_scalar.py"), "--set", "steps=3", "--set", "alpha=2",
                 "--dump-all", str(dump)])
    assert code == 0, capsys.readouterr()
    # the dump has what the runs feed: a hazards report per stage and instance graphs
    assert "_lower_to_emission (emission): 4 tasks, 0 hazards" in (dump / "hazards.txt").read_text()  # 3 axpy, 1 copy
    assert list(dump.glob("*.instances.dot"))
    assert len(runs) > 2  # more than the reference and emission stages were run
    assert [key for key, count in runs.items() if count > 1] == []
