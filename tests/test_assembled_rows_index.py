"""``assembled_rows.LaterFills``: whether a later assemble of a block overwrites an earlier one
before anything reads its rows, answered from an index of the block, must be what scanning the
block's later statements one by one answers (the definition in ``dead_assembles``'s docstring):
the first statement that fills rows covering the earlier assemble's (the same places, a covering
box or the same offset and shape expressions) makes it overwritten; a statement before it that
reads a name stored in an overlapping part of the buffer keeps it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nanopass.languages import SSA
from nanopass.languages.terms import DType
from nanopass.passes.assembled_rows import LaterFills, Placement
from nanopass.passes.regions import FULL, UNKNOWN, Box, covers, overlaps

PLACES = (frozenset({("big", FULL)}), frozenset({("other", FULL)}))


def placement(places, row, rows, symbolic: bool, cols: int = 4) -> Placement:
    offset = (SSA.Var("i") if symbolic else SSA.Int(row, DType.INDEX), SSA.Int(0, DType.INDEX))
    shape = (SSA.Int(rows, DType.INDEX), SSA.Int(cols, DType.INDEX))
    return Placement.of(places, shape, offset)


def scanned(fills, reads, at: int, earlier: Placement) -> bool:
    """The definition, one statement at a time."""
    [(root, region)] = earlier.rows
    for later in range(at + 1, len(fills)):
        fill = fills[later]
        if fill is not None and fill.places == earlier.places:
            [(_, rows)] = fill.rows
            same = fill.offset == earlier.offset and fill.shape == earlier.shape
            if covers(rows, region) or (same and all(e._production in ("Var", "Int") for e in fill.offset + fill.shape)):
                return True
        if any(r == root and overlaps(w, region) for r, w in reads[later]):
            return False
    return False


STATEMENT = st.one_of(
    st.tuples(st.just("fill"), st.sampled_from(PLACES), st.integers(0, 6), st.integers(0, 3), st.booleans(),
              st.sampled_from([4, 2, 0]), st.booleans()),
    st.tuples(st.just("read"), st.sampled_from(["big", "other"]), st.integers(0, 6), st.integers(0, 3),
              st.sampled_from(["box", "full", "unknown"])),
    st.just(("other",)),
)


@settings(max_examples=250, deadline=None)
@given(st.lists(STATEMENT, min_size=1, max_size=14))
def test_the_index_answers_what_the_scan_answers(block):
    fills, reads = [], []
    for kind, *rest in block:
        if kind == "fill":
            places, row, rows, symbolic, cols, reads_itself = rest
            fills.append(placement(places, row, rows, symbolic, cols))
            # an assemble reads its source and offset: here, at times, rows of the buffer itself
            reads.append([("big", Box((row, 0), (row + 1, 4)))] if reads_itself else [])
        elif kind == "read":
            root, row, rows, how = rest
            region = {"box": Box((row, 0), (row + rows, 4)), "full": FULL, "unknown": UNKNOWN}[how]
            fills.append(None)
            reads.append([(root, region)])
        else:
            fills.append(None)
            reads.append([])
    index = LaterFills(fills, reads)
    for at, fill in enumerate(fills):
        if fill is not None:
            assert index.overwritten(at, fill) == scanned(fills, reads, at, fill), (at, block)


def test_a_larger_box_overwrites_and_a_read_between_keeps():
    small, large = placement(PLACES[0], 2, 2, False), placement(PLACES[0], 0, 6, False)
    assert LaterFills([small, None, large], [[], [], []]).overwritten(0, small)
    read = [("big", Box((3, 0), (4, 4)))]
    assert not LaterFills([small, None, large], [[], read, []]).overwritten(0, small)
    # a read of other rows, or of another buffer, keeps nothing
    elsewhere = [("big", Box((5, 0), (6, 4))), ("other", FULL)]
    assert LaterFills([small, None, large], [[], elsewhere, []]).overwritten(0, small)
    # a fill into another buffer, or of rows not covering, overwrites nothing
    assert not LaterFills([small, placement(PLACES[1], 0, 6, False)], [[], []]).overwritten(0, small)
    assert not LaterFills([small, placement(PLACES[0], 3, 3, False)], [[], []]).overwritten(0, small)
    # an empty box is covered by another empty box holding it (of equal volume, yet not equal)
    empty, holder = placement(PLACES[0], 2, 0, False, cols=0), placement(PLACES[0], 2, 0, False, cols=4)
    assert LaterFills([empty, holder], [[], []]).overwritten(0, empty)
