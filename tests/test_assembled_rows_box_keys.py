"""``assembled_rows.LaterFills`` indexes a fill of a box by its rows only: a box is made of constant
offsets and shapes, which it determines, so equal expressions make equal boxes and the index of
expressions holds only the fills that are not boxes. A later fill of the same expressions is found
either way: by its rows when they are a box, by its expressions when they are not (symbolic, or of
another rank than the target's box)."""

from __future__ import annotations

from nanopass.languages import SSA
from nanopass.languages.terms import DType
from nanopass.passes.assembled_rows import LaterFills, Placement
from nanopass.passes.regions import FULL, UNKNOWN, Box

WHOLE = frozenset({("big", FULL)})
ROWS_OF = frozenset({("big", Box((8, 0), (16, 4)))})  # (a target that is a box of its buffer)


def ints(*values):
    return tuple(SSA.Int(v, DType.INDEX) for v in values)


def fill(places, offset, shape) -> Placement:
    return Placement.of(places, shape, offset)


def test_box_fills_are_keyed_by_rows_and_the_others_by_expressions():
    boxes = [fill(WHOLE, ints(0, 0), ints(2, 4)), fill(ROWS_OF, ints(2, 0), ints(2, 4))]
    symbolic = fill(WHOLE, (SSA.Var("i"), SSA.Int(0, DType.INDEX)), ints(2, 4))
    other_rank = fill(ROWS_OF, ints(0, 0, 0), ints(1, 2, 4))
    assert [f.rows for f in (symbolic, other_rank)] == [frozenset({("big", UNKNOWN)})] * 2
    index = LaterFills([*boxes, symbolic, other_rank], [[]] * 4)
    assert sorted(index.volumes) == [0, 1] and sorted(index.keys) == [2, 3]
    assert sorted(p for positions in index.by_exprs.values() for p in positions) == [2, 3]
    assert index.none_covered


def test_a_later_fill_of_the_same_expressions_overwrites_box_or_not():
    for places, offset, shape in (
        (WHOLE, ints(4, 0), ints(2, 4)),  # a box of the whole buffer
        (ROWS_OF, ints(2, 0), ints(2, 4)),  # a box within the target's rows
        (ROWS_OF, ints(0, 0, 0), ints(1, 2, 4)),  # rows unknown (another rank): found by expressions
        (WHOLE, (SSA.Var("i"), SSA.Int(0, DType.INDEX)), ints(2, 4)),  # symbolic: by expressions
    ):
        first, second = fill(places, offset, shape), fill(places, offset, shape)
        index = LaterFills([first, None, second], [[], [], []])
        assert not index.none_covered
        assert index.overwritten(0, first)
        assert index.first_covering(0, first, next(iter(first.rows))[1]) == 2
        # a fill built again (not the indexed one) is looked up the same way
        assert index.overwritten(0, fill(places, offset, shape))
        # a read of the rows between keeps the first
        kept = LaterFills([first, None, second], [[], [("big", FULL)], []])
        assert not kept.overwritten(0, first)
