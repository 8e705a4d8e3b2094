"""Traces: JSON round trip, regions of views, canonical comparison."""

from __future__ import annotations

from nanopass.tools.sim_runtime import CreateInfo, EntryTensor, Inputs, SimRuntime
from nanopass.tools.trace import Box, Trace, View, canonical, compare, covers, overlaps, region


def _run(order: str) -> Trace:
    """Two allocations made in either order, then the same two tasks."""
    rt = SimRuntime(Inputs((EntryTensor((4, 4), "FLOAT32", "x"),)))
    rt.scope_begin("auto")
    infos = [CreateInfo((4, 4), "FLOAT32"), CreateInfo((2,), "INT32", init=7)]
    if order == "batched":
        _, (a, b) = rt.alloc(infos)
    else:
        _, (b,) = rt.alloc(infos[1:])
        _, (a,) = rt.alloc(infos[:1])
    first, _ = rt.submit((-1, 0, -1), [(rt.entries[0], "INPUT"), (a, "OUTPUT_EXISTING")], [3], [])
    rt.submit((-1, 0, -1), [(a.view((2, 4), (2, 0)), "INPUT"), (b, "INOUT")], [], [first])
    rt.scope_end()
    return rt.trace


def test_json_round_trip_keeps_every_event():
    trace = _run("batched")
    again = Trace.from_json(trace.to_json())
    assert again.events == trace.events and again.buffers == trace.buffers


def test_allocation_order_does_not_matter_after_canonicalisation():
    assert compare(_run("batched"), _run("separate")) is None
    assert canonical(_run("batched")).buffers[0][0] == "in0"


def test_a_changed_dependency_is_reported_with_both_tasks():
    a, b = _run("batched"), _run("batched")
    last = b.events[-2]
    b.events[-2] = type(last)(**{**last.__dict__, "deps": ()})
    difference = compare(a, b, ("ref", "emission"))
    assert difference.startswith("event 1 differs") and "deps=['task0']" in difference and "deps=[]" in difference


def test_regions_of_slices_transposes_and_reshapes_are_exact_boxes():
    base = (8, 4)
    assert region(View("b", 2 * 4 + 1, (3, 2), (4, 1)), base) == Box((2, 1), (3, 2))
    assert region(View("b", 0, (4, 8), (1, 4)), base) == Box((0, 0), (8, 4))  # whole, transposed
    assert region(View("b", 4 * 4 + 1, (2, 3), (1, 4)), base) == Box((4, 1), (3, 2))  # a transposed slice
    assert region(View("b", 2 * 4, (8,), (1,)), base) == Box((2, 0), (2, 4))  # rows 2..3, flattened
    assert region(View("b", 0, (2, 2, 4), (8, 4, 1)), base) == Box((0, 0), (4, 4))  # rows 0..3 as 2x2x4


def test_a_view_that_is_no_box_is_the_whole_buffer_with_its_elements():
    base = (8, 4)
    flattened_columns = View("b", 1, (6,), (1,))  # elements 1..6 straddle rows 0 and 1
    elems = frozenset({(0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2)})
    assert region(flattened_columns, base) == Box((0, 0), (8, 4), exact=False, elems=elems)
    strided = View("b", 0, (4,), (2,))  # every other element of rows 0..1: 0, 2, 4, 6
    assert region(strided, base) == Box((0, 0), (8, 4), False, frozenset({(0, 0), (0, 2), (1, 0), (1, 2)}))
    # compared by elements (docs/decisions.md, "regions of views that are no box"): the strided
    # view misses (0, 1) and (1, 3), and covers neither a box it does not fill nor one it does not touch
    assert not overlaps(region(strided, base), Box((0, 1), (1, 1)))
    assert overlaps(region(strided, base), region(flattened_columns, base))  # (0, 2), (1, 0), (1, 2)
    assert not covers(region(strided, base), Box((0, 0), (1, 3)))
    assert covers(region(flattened_columns, base), Box((0, 1), (1, 3)))
    assert covers(Box((0, 0), (2, 4)), region(strided, base)) and not covers(Box((0, 0), (1, 4)), region(strided, base))
    # more than ELEMS_CAP elements: the whole buffer, conservatively, as before
    big = (1 << 10, 1 << 5)
    assert region(View("b", 1, (1 << 15,), (1,)), big) == Box((0, 0), big, exact=False)


def test_overlap_and_cover_are_per_dimension():
    a, b, c = Box((0, 0), (4, 4)), Box((3, 3), (2, 2)), Box((4, 0), (1, 4))
    assert overlaps(a, b) and not overlaps(a, c)
    assert covers(a, Box((1, 1), (2, 2))) and not covers(a, b)
    assert not covers(Box((0, 0), (8, 4), exact=False), a)


def test_a_fatal_runtime_ends_the_trace():
    rt = SimRuntime(Inputs())
    rt.scope_begin("manual")
    rt.scope_begin("auto")
    assert rt.fatal and rt.trace.fatal().message == "rt_scope_begin: AUTO scope inside a MANUAL scope"
    assert rt.submit((-1, 0, -1), [], [], []) == (None, [])
