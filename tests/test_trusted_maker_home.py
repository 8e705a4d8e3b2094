"""``trusted_maker`` lives in ``nanopass.rewrite`` beside the rule it trusts by (``_proved_kind``);
``passes.util`` keeps its old name as an import for the passes that build with it."""

from nanopass import rewrite
from nanopass.passes import util


def test_util_name_is_rewrites():
    assert util.trusted_maker is rewrite.trusted_maker
    assert rewrite.trusted_maker.__module__ == "nanopass.rewrite"
