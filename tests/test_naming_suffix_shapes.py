"""A taken base whose suffixed names are all shaped like generated ones (``alloc``: every
``alloc_k`` is ``alloc_\\d+``) is searched as ``user_alloc``: the search for ``alloc_k`` never ended."""

from __future__ import annotations

import signal

import pytest

from nanopass.passes.naming import NameTable, generated_shape


@pytest.fixture
def deadline():
    def expired(signum, frame):
        raise AssertionError("NameTable.reserve did not return within 5 s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(5)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("base", ["alloc", "mixed", "indices", "ext"])
def test_a_taken_base_whose_suffixes_are_generated_shapes_gets_the_user_prefix(deadline, base):
    assert generated_shape(base + "_1")
    table = NameTable([base])
    first = table.reserve(base)
    second = table.reserve(base)
    assert (first, second) == (f"user_{base}", f"user_{base}_1")
    assert not generated_shape(first) and not generated_shape(second)


def test_a_free_base_keeps_its_name_and_an_ordinary_taken_base_its_suffix(deadline):
    table = NameTable(["x"])
    assert table.reserve("alloc") == "alloc"  # free: itself
    assert table.reserve("x") == "x_1"
