"""fuse_create_assemble_to_slice hands ``storage_map`` of its output to the passes after it, made
from its input's by ``storage_with_slices`` (each placed source's places mapped into the rows it
became) instead of a walk (``FORWARD_STORAGE``): on every example and golden program, the bench
shapes, random programs and programs of the rows grammar, the map handed on equals a walk of the
output, and the compile's C++ is the same with the shortcut forced off; it is handed on where
sources are placed (the assembles shape), not where one is placed by an ``if``."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import EXAMPLES_AND_GOLDEN, bench_file, cpp_of, pass_runs
from test_call_directions_in_one_loop import corpus
from test_place_by_branch import SWAPS

from nanopass.errors import UserError
from nanopass.languages.statements import reusing_walks
from nanopass.passes import fuse_create_assemble_to_slice as fusing
from nanopass.passes.fuse_create_assemble_to_slice import FuseCreateAssembleToSlice
from nanopass.passes.hazards import _storage_map, storage_map, storage_with_slices
from nanopass.passes.kernels import kernel_table
from nanopass.pipeline import PipelineError
from nanopass.rewrite import PassContext
from nanopass.tools.attack import rows as rows_grammar

NAME = "fuse_create_assemble_to_slice"


def handed_on(tree):
    """(the pass's output, the map it hands on, a walk of the output); None where it refuses."""
    with reusing_walks():
        try:
            out = FuseCreateAssembleToSlice(PassContext()).run(tree)
        except UserError:
            return None
        kernels = kernel_table(out)
        return out, storage_map(out.orch, kernels), _storage_map(out.orch, kernels)


def check(path: Path) -> int:
    """Whether the pass placed a source in the compile of ``path`` (checking the map it hands on)."""
    placed = 0
    for given, _ in pass_runs(path, NAME):
        got = handed_on(given)
        if got is not None:
            out, forwarded, walked = got
            assert forwarded == walked, path.name
            placed += out is not given and any(s._production == "Let" and s.value._production == "SliceTensor"
                                               and s.value.placed for s in out.orch.body)
    return placed


@pytest.mark.parametrize("path", EXAMPLES_AND_GOLDEN, ids=[p.stem for p in EXAMPLES_AND_GOLDEN])
def test_the_map_handed_on_is_the_walk_s_on_examples_and_golden_programs(path: Path):
    check(path)


def test_the_map_handed_on_is_the_walk_s_and_the_cpp_the_same_on_shapes_random_and_rows_programs(tmp_path, monkeypatch):
    paths = corpus(tmp_path, 3840, rows_grammar, (2, 3), 120)
    placed = 0
    compiled = []
    for path in paths:
        placed += check(path)
        try:
            cpp_of([path])
        except (UserError, PipelineError):
            continue
        compiled.append(path)
    assert placed >= 20 and len(compiled) >= 100
    fast = cpp_of(compiled)
    monkeypatch.setattr(fusing, "FORWARD_STORAGE", False)
    assert cpp_of(compiled) == fast


def test_each_place_of_a_placed_source_is_mapped_into_its_rows():
    from nanopass.languages import SSA as S
    from nanopass.languages.terms import DType
    from nanopass.passes.regions import FULL, FULL_VIEW, UNKNOWN, Box

    i = lambda *vs: [S.Int(v, DType.INDEX) for v in vs]
    store = {"big": frozenset({("big", FULL)}), "t": frozenset({("t", FULL)}), "v": frozenset({("t", Box((1, 2), (3, 4)))}),
             "w": frozenset({("t", FULL_VIEW)}), "u": frozenset({("t", UNKNOWN), ("x", FULL)}),
             "s": frozenset({("s", FULL)}), "r": frozenset({("s", Box((0,), (2,)))})}
    sliced = {"t": ("big", i(4, 4), i(8, 0), None), "s": ("t", i(2, 4), i(1, 0), frozenset({("t", UNKNOWN)}))}
    holders = {"t": {"t", "v", "w", "u", "x"}, "s": {"s", "r"}}
    got = storage_with_slices(store, sliced, holders)
    assert got["big"] == store["big"]
    assert got["t"] == {("big", Box((8, 0), (12, 4)))}
    assert got["v"] == {("big", Box((9, 2), (11, 4)))}  # the box shifted by the rows' corner
    assert got["w"] == {("big", UNKNOWN)} and got["u"] == {("big", UNKNOWN), ("x", FULL)}
    assert got["s"] == {("big", Box((9, 0), (11, 4)))}  # a slice of a slice (t's rows: not those given)
    made = frozenset({("big", Box((8, 0), (12, 4)))})
    assert storage_with_slices(store, {"t": (*sliced["t"][:3], made)}, holders)["t"] is made
    assert got["r"] == {("big", UNKNOWN)}  # a box of another rank


def test_the_map_is_handed_on_where_sources_are_placed(tmp_path, monkeypatch):
    ((given, compiled),) = pass_runs(bench_file(tmp_path, "assembles", 24), NAME)
    calls = []
    original = fusing.storage_with_slices
    monkeypatch.setattr(fusing, "storage_with_slices", lambda *a: calls.append(a) or original(*a))
    out, forwarded, walked = handed_on(given)
    assert out == compiled and forwarded == walked and len(calls) == 1 and calls[0][1]
    monkeypatch.setattr(fusing, "FORWARD_STORAGE", False)
    assert handed_on(given)[1:] == (walked, walked) and len(calls) == 1
    monkeypatch.setattr(fusing, "FORWARD_STORAGE", True)
    ((given, compiled),) = pass_runs(SWAPS, NAME)  # a target chosen by an if: the output walked again
    out, forwarded, walked = handed_on(given)
    assert out == compiled != given and forwarded == walked and len(calls) == 1
