"""``Pass.contract`` is made once per pass class and docstring: the driver asks it for every
stage of every compile (formatting the docstrings again cost each compile millions of
instructions), and the text follows the docstring it was made of."""

from __future__ import annotations

import pytest

import nanopass.passes.pipeline as pipeline_module
from nanopass.passes.lower_to_emission import LowerToEmission


def test_a_pass_contract_is_made_once():
    for cls in pipeline_module.PASSES:
        assert cls.contract() is cls.contract(), f"{cls.name}: its contract formatted again"


def test_a_changed_docstring_gives_its_own_contract(monkeypatch: pytest.MonkeyPatch):
    before = LowerToEmission.contract()
    monkeypatch.setattr(LowerToEmission, "__doc__", "First   paragraph,\n  on two lines.\n\n  Second.\n")
    assert LowerToEmission.contract() == "First paragraph, on two lines.\n\nSecond."
    monkeypatch.undo()
    assert LowerToEmission.contract() == before
