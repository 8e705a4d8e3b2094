"""Issue 21: the checks every generated program's runs must pass (``tools/properties.py``), the
issue's defect classes they file failures under, and the switch that holds back the shapes
today's compiler gets wrong (``tools/pending.py``)."""

from __future__ import annotations

from test_runtime_model import Builder

from nanopass.errors import UserError
from nanopass.tools import pending, properties
from nanopass.tools.hazards import failing, find_hazards, manual_scopes
from nanopass.tools.properties import Failure, Findings, check_text, classify
from nanopass.tools.enumerate_programs import Atom, Bracket, render, runs


def only_hazard(b: Builder):
    [hazard] = failing(find_hazards(b.trace))
    return classify(b.trace, hazard, manual_scopes(b.trace))


def test_a_host_access_against_a_task_is_class_1():
    b = Builder("x")
    b.task(("x", "INPUT"))
    b.host("x", write=True)
    assert only_hazard(b) == "1"


def test_tasks_in_two_instances_of_a_manual_scope_are_class_2():
    b = Builder("x")
    for _ in range(2):
        b.scope("manual")
        b.task(("x", "INOUT"), mode="manual")
        b.end()
    assert only_hazard(b) == "2"


def test_a_pair_across_a_manual_scope_boundary_is_class_4_and_a_write_after_read_class_3():
    b = Builder("x")
    b.task(("x", "INOUT"))
    b.scope("manual")
    b.task(("x", "INPUT"), mode="manual")
    b.end()
    assert only_hazard(b) == "4"
    c = Builder("x")
    c.task(("x", "INPUT"))
    c.task(("x", "INOUT"))
    assert only_hazard(c) == "3"


def program(*items):
    return render(tuple(items)), runs(tuple(items))


def test_a_refusal_of_a_valid_program_is_class_7(monkeypatch):
    def refuse(text, options=None, recheck_preserved=False):
        raise UserError("nope")

    monkeypatch.setattr(properties, "compile_text", refuse)
    findings = Findings()
    [failure] = check_text(*program(Atom("read", "a")), findings)
    assert (failure.kind, failure.defect, failure.message) == ("refusal", "7", "refused: error: nope")
    assert findings.failures == 1 and findings.counts[("refusal", "7")] == 1


def test_a_value_mismatch_is_class_5_and_counted_once_per_run(monkeypatch):
    from nanopass.tools import check

    monkeypatch.setattr(check, "compare_values", lambda *args: ["one", "two"])
    findings = Findings()
    failures = check_text(*program(Bracket("loop", (Atom("inout", "a"),))), findings, every_stage=False)
    assert [(f.kind, f.defect, f.values["n"]) for f in failures] == [("mismatch", "5", n) for n in "012"]
    assert failures[0].message == "value mismatch: one\nvalue mismatch: two"


def test_findings_keep_the_smallest_program_of_each_kind_and_merge(tmp_path):
    one, two = Findings(), Findings()
    one.add(Failure("hazard", "1", "long", "x" * 50 + "\n", {"n": "1"}))
    two.add(Failure("hazard", "1", "short", "# shape: read a\n", {"n": "0"}))
    two.add(Failure("crash", "6", "boom", "y\n", {}))
    both = Findings.merge([one, two])
    assert both.smallest[("hazard", "1")].message == "short" and both.counts[("hazard", "1")] == 2
    saved = {path.name: path.read_text() for path in both.save(tmp_path)}
    assert saved["class1_hazard.py"].startswith("# issue 21, class 1: host access")
    assert "# check: n=0\n# shape: read a\n" in saved["class1_hazard.py"]
    assert "class 1 hazard [n=0] read a" in saved["failing_runs.txt"]
    assert "2 hazard" in both.summary(1.0)


def test_pending_shapes_are_off_until_asked_for_or_the_fix_lands(monkeypatch):
    monkeypatch.delenv("NANOPASS_ALL_SHAPES", raising=False)
    monkeypatch.setattr(pending, "ISSUE_21_PENDING", True)
    assert pending.default_features() == pending.FEATURES - pending.PENDING
    assert not pending.handled({"host_writes"}) and pending.handled({"assemble"})
    monkeypatch.setenv("NANOPASS_ALL_SHAPES", "1")
    assert pending.default_features() == pending.FEATURES and pending.handled({"host_writes"})
    monkeypatch.delenv("NANOPASS_ALL_SHAPES")
    monkeypatch.setattr(pending, "ISSUE_21_PENDING", False)
    assert pending.default_features() == pending.FEATURES

