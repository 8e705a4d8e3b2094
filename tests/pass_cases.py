"""The cases a both-ways test of a pass runs on every program: the examples and golden programs,
and the bench shapes (each at 24)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES_AND_GOLDEN, SHAPES, bench_file


def corpus_tests(check):
    """(test of every example and golden program, test of every bench shape): each runs ``check`` on
    a file's path. Bind them to ``test_`` names in the test module."""

    @pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=lambda p: p.stem)
    def programs(path: Path):
        check(path)

    @pytest.mark.parametrize("shape", SHAPES)
    def shapes(tmp_path, shape):
        check(bench_file(tmp_path, shape, 24))

    return programs, shapes
