"""Issue 21's defect classes, each with its smallest program (``tests/found/``, found by the
generators and minimised), run through the checks every generated program must pass
(``tools/properties.py``). The fix has landed (``pending.ISSUE_21_PENDING`` is False): each must
pass (a refusal of a program with no correct compilation, ``properties.NO_CORRECT_COMPILATION``,
is no failure, except of a class-7 program: a valid program once refused must compile). With the switch on again, each must fail in the class its first line names."""

from __future__ import annotations

import re

import pytest

from conftest import REPO

from nanopass.tools import pending
from nanopass.tools.fuzz_deps import options_of
from nanopass.tools.properties import Findings, check_text

FOUND = sorted((REPO / "tests" / "found").glob("*.py"))


def runs(text: str) -> list[dict[str, str]]:
    return [dict(item.split("=", 1) for item in line.split(":", 1)[1].split())
            for line in text.splitlines() if line.startswith("# check:")]


def test_every_defect_class_has_a_program():
    classes = {re.match(r"# issue 21, class (\d)", path.read_text()).group(1) for path in FOUND}
    assert classes == set("1234567")


@pytest.mark.parametrize("path", FOUND, ids=lambda path: path.stem)
def test_each_found_program_fails_in_its_class_until_the_fix_and_passes_after(path):
    text = path.read_text()
    findings = Findings()
    failures = check_text(text, runs(text), findings, options=options_of(text))
    report = "\n".join(f"{f.kind} (class {f.defect}): {f.message}" for f in failures)
    if pending.all_shapes():
        assert failures == [], report
        if text.startswith("# issue 21, class 7"):  # a valid program once refused: it compiles
            assert findings.refused_by_design == 0, "refused as having no correct compilation"
    else:
        defect = re.match(r"# issue 21, class (\d)", text).group(1)
        assert failures and {f.defect for f in failures} == {defect}, report
