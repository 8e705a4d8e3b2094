"""Three readings of runtime-api.md section 11 that both runtime models took stronger than the
text guarantees (audit of issue 24); each model now takes the weakest (docs/decisions.md,
"host access through a manual_dep tensor", "regions of views that are no box", "versions").
Every expectation is worked out by hand from the sentence quoted; the old models fail the lines
marked "old model".
"""

from __future__ import annotations

from test_attack import IN, INOUT, A, T, submit
from test_runtime_model import SHAPE, Builder, edges

from nanopass.tools.attack import rtmodel
from nanopass.tools.hazards import find_hazards
from nanopass.tools.runtime_model import model
from nanopass.tools.trace import HostRead, TensorArg, View

# -- "manual_dep ... turns off lookup and insert for that tensor, which leaves creator-only
#    tracking"; get_tensor_data "spin-waits until the creator and every overlapping TensorMap
#    producer are COMPLETED": through a manual_dep tensor the lookup is off, the creator stays.


def test_runtime_model_host_read_through_a_manual_dep_tensor_waits_for_the_creator_alone():
    # y is allocated (creator: the alloc), P writes it as INOUT (a TensorMap producer, its slot
    # not manual_dep), then the host reads y[0, 0] through a manual_dep Tensor of the same buffer.
    b = Builder()
    creator = b.alloc("y")
    producer = b.task(("y", "INOUT"))
    read = b.add(HostRead(b.view("y"), (0, 0), 0, True, b.owners["y"]))
    runtime = model(b.trace)
    assert runtime.ordered(creator, read)
    assert not runtime.ordered(producer, read)  # old model: ordered (it looked the producer up)


def get(t: dict) -> dict:
    return {"ev": "get", "scope": 0, "mode": rtmodel.AUTO, "t": t, "idx": [0, 0]}


def test_attack_model_host_read_through_a_manual_dep_tensor_waits_for_the_creator_alone():
    # node 0 (id 1) writes A as INOUT; node 1 (id 2) too, and A's Tensor for the get names node 1
    # as its creator: the get waits for node 1, not for node 0 (not its creator, and the lookup
    # that would find it is off).
    log = [submit(1, [(INOUT, T(A))]), submit(2, [(INOUT, T(A, shape=(4, 4)))]),
           get(T(A, off=16, shape=(4, 4), owner=2, manual_dep=True))]
    m = rtmodel.build(log)
    assert m.ordered(1, 2)
    assert m.ordered(0, 1)   # node 1's INOUT looked node 0 up: 0 -> 1 -> get
    log = [submit(1, [(INOUT, T(A))]), get(T(A, manual_dep=True))]
    assert not rtmodel.build(log).ordered(0, 1)  # old model: ordered


# -- "Every TensorMap entry whose buffer.addr matches and whose region overlaps the view becomes a
#    fanin. Regions are compared using start_offset, shapes and strides ... Disjoint views of one
#    buffer do not depend on each other." A view whose elements form no box of the buffer is
#    compared by its elements, not as the whole buffer.


def flat(b: Builder, name: str, start: int, count: int) -> View:
    """``count`` consecutive elements from flat offset ``start`` of a SHAPE buffer (a reshape to
    one dimension, then a slice): a box only when it is whole rows or part of one row."""
    return View(name, start, (count,), (1,))


def test_runtime_model_disjoint_views_that_are_no_box_do_not_depend_on_each_other():
    # SHAPE is 16 x 16. P writes elements 8..23 (row 0 cols 8..15, row 1 cols 0..7: no box);
    # R reads 24..39 (row 1 cols 8..15, row 2 cols 0..7): disjoint, so no fanin. R2 reads 20..27,
    # which shares 20..23 with P: a fanin.
    b = Builder("x")
    producer = b.add(_task(b, flat(b, "x", 8, 16), "INOUT"))
    reader = b.add(_task(b, flat(b, "x", 24, 16), "INPUT"))
    overlapping = b.add(_task(b, flat(b, "x", 20, 8), "INPUT"))
    runtime = model(b.trace)
    assert not runtime.ordered(producer, reader)  # old model: ordered (both the whole buffer)
    assert runtime.ordered(producer, overlapping)
    # and the hazard checker finds no conflict between the disjoint pair
    assert not [h for h in find_hazards(b.trace, runtime) if {h.first, h.second} == {producer, reader}]


def test_runtime_model_an_inout_covering_a_view_that_is_no_box_removes_its_entry():
    # "For INOUT, an entry whose region is fully COVERED by the new access is removed": P1 writes
    # 8..23 (no box), P2 INOUT rows 0..1 (elements 0..31) covers it, so P1's entry goes; R reads
    # 8..23 and finds P2 only (P1 comes before it through P2).
    b = Builder("x")
    first = b.add(_task(b, flat(b, "x", 8, 16), "INOUT"))
    second = b.task(("x", "INOUT", (0, 2)))
    reader = b.add(_task(b, flat(b, "x", 8, 16), "INPUT"))
    found = edges(b)
    assert (second, reader, "tensormap") in found
    assert (first, reader, "tensormap") not in found  # old model: kept (a conservative box covers nothing)
    assert model(b.trace).ordered(first, reader)


def _task(b: Builder, view: View, tag: str):
    from nanopass.tools.trace import Task

    return Task(b.take(), "kernel", (-1, 0, -1), (TensorArg(view, tag, False, b.owners[view.buffer]),), (), (), "auto", ())


# -- "a higher version counts as overlapping": the text does not say whose version is the higher
#    (the entry's or the looked-up view's), so neither reading orders anything.


def test_attack_model_a_version_alone_makes_no_fanin():
    # node 0 writes rows 0..3 of A (version 0); node 1 reads rows 4..7 with version 1: disjoint
    # elements, so no fanin either way.
    newer = {**T(A, off=16, shape=(4, 4)), "version": 1}
    log = [submit(1, [(INOUT, T(A, shape=(4, 4)))]), submit(2, [(IN, newer)])]
    assert not rtmodel.build(log).ordered(0, 1)  # old model: ordered (entry version 0 < 1)
    older = {**T(A, shape=(4, 4)), "version": 0}
    log = [submit(1, [(INOUT, {**T(A, off=16, shape=(4, 4)), "version": 1})]), submit(2, [(IN, older)])]
    assert not rtmodel.build(log).ordered(0, 1)


def test_shape_is_16_by_16():
    assert SHAPE == (16, 16)  # the flat offsets above are worked out for it
