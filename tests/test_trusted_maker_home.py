"""``trusted_maker`` lives in ``nanopass.rewrite`` beside the rule it trusts by (``_proved_kind``),
and only there: ``passes.util`` keeps no second name for it, and the passes that build with it
import it from ``nanopass.rewrite``."""

import pathlib

from nanopass import rewrite
from nanopass.passes import util

PASSES = pathlib.Path(util.__file__).parent


def test_trusted_maker_has_one_home():
    assert rewrite.trusted_maker.__module__ == "nanopass.rewrite"
    assert not hasattr(util, "trusted_maker")


def test_callers_import_it_from_rewrite():
    callers = [p for p in PASSES.rglob("*.py") if "trusted_maker(" in p.read_text()]
    assert len(callers) >= 5
    for path in callers:
        text = path.read_text()
        imports = [line for line in text.splitlines() if line.startswith("from ") and "trusted_maker" in line]
        assert len(imports) == 1 and imports[0].startswith("from nanopass.rewrite import "), path
