"""The named language's name map is two tuples (``renamed`` and ``identifiers``, index for
index): ``check_name_map`` refuses a map whose tuples differ in length or that renames a name
twice, and accepts the map remap_output_aliases makes."""

from __future__ import annotations

import pytest

from conftest import bench_file, pass_runs

from nanopass.errors import VerifyError
from nanopass.languages.named import check_name_map


def _named(tmp_path):
    ((_, named),) = pass_runs(bench_file(tmp_path, "nested", 8), "remap_output_aliases", refusals=False)
    return named


def _with_map(program, renamed, identifiers):
    func = program.orch.replace(renamed=renamed, identifiers=identifiers)
    return program.replace(orch=func)


def test_the_map_remap_output_aliases_makes_passes(tmp_path):
    named = _named(tmp_path)
    assert len(named.orch.renamed) > 20
    check_name_map(named)
    assert dict(zip(named.orch.renamed, named.orch.identifiers))["x"] == "ext_x"


def test_a_map_of_two_lengths_is_refused(tmp_path):
    named = _named(tmp_path)
    func = named.orch
    with pytest.raises(VerifyError):
        check_name_map(_with_map(named, func.renamed, func.identifiers[:-1]))


def test_a_name_renamed_twice_is_refused(tmp_path):
    named = _named(tmp_path)
    func = named.orch
    with pytest.raises(VerifyError):
        check_name_map(_with_map(named, func.renamed + func.renamed[:1], func.identifiers + ("other",)))
