"""fuse_create_assemble_to_slice builds a placed source's slice and the lets it rewrites with
``make_trusted`` (fields of checked nodes of the same kinds, and the slice just made): with
every construction checked (``trusted_checked``) it gives the same output or refusal on every
example, golden and found program, the bench shapes and random programs."""

from __future__ import annotations

import pytest

from conftest import FOUND, corpus_tests, random_file, trusted_both_ways

from nanopass.passes.fuse_create_assemble_to_slice import FuseCreateAssembleToSlice


def check(path) -> None:
    trusted_both_ways(FuseCreateAssembleToSlice, path)


test_programs, test_shapes = corpus_tests(check)


@pytest.mark.parametrize("path", sorted(FOUND.glob("*.py")), ids=lambda p: p.stem)
def test_found_programs(path):
    check(path)


@pytest.mark.parametrize("seed", range(16))
def test_random_programs(tmp_path, seed):
    check(random_file(tmp_path, 44300 + seed, manual=seed % 3 == 1))
