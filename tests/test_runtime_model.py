"""The runtime model follows runtime-api.md section 11, rule by rule (hand-built traces)."""

from __future__ import annotations

import pytest

from nanopass.tools.hazards import failing, find_hazards
from nanopass.tools.runtime_model import ModelError, model
from nanopass.tools.trace import (
    Alloc,
    Buffer,
    HostRead,
    HostWrite,
    ScopeBegin,
    ScopeEnd,
    Task,
    TensorArg,
    Trace,
    View,
    row_major_strides,
)

SHAPE = (16, 16)


class Builder:
    """A trace written by hand: ``task(("t", "INPUT"), ...)`` appends a task and returns its event index."""

    def __init__(self, *entries: str):
        self.trace = Trace()
        self.next_id = 0
        self.owners: dict[str, int | None] = {}
        for slot, name in enumerate(entries):
            self.trace.buffers[name] = Buffer(name, SHAPE, "FLOAT32", "entry", slot)
            self.owners[name] = None
        self.trace.events.append(ScopeBegin("auto"))

    def alloc(self, *names: str, manual_dep: bool = False) -> int:
        for name in names:
            self.trace.buffers[name] = Buffer(name, SHAPE, "FLOAT32", "alloc", manual_dep=manual_dep)
            self.owners[name] = self.next_id
        return self.add(Alloc(self.take(), tuple(names)))

    def take(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def add(self, event) -> int:
        self.trace.events.append(event)
        return len(self.trace.events) - 1

    def view(self, name: str, rows: tuple[int, int] | None = None) -> View:
        if rows is None:
            return View(name, 0, SHAPE, row_major_strides(SHAPE))
        return View(name, rows[0] * SHAPE[1], (rows[1] - rows[0], SHAPE[1]), row_major_strides(SHAPE))

    def task(self, *args, deps=(), mode="auto", manual_dep=False, outputs=(), kind="kernel") -> int:
        task_id = self.take()
        tensors = []
        for arg in args:
            name, tag = arg[0], arg[1]
            rows = arg[2] if len(arg) > 2 else None
            tensors.append(TensorArg(self.view(name, rows), tag, manual_dep, self.owners[name]))
        for name in outputs:
            self.trace.buffers[name] = Buffer(name, SHAPE, "FLOAT32", "output")
            self.owners[name] = task_id
            tensors.append(TensorArg(self.view(name), "OUTPUT", False, task_id))
        ids = tuple(self.id_of(d) for d in deps)
        launch = (-1, 0, -1) if kind == "kernel" else None
        return self.add(Task(task_id, kind, launch, tuple(tensors), (), ids, mode, tuple(outputs)))

    def id_of(self, index: int) -> int:
        return self.trace.events[index].id

    def host(self, name: str, write: bool = False) -> int:
        cls = HostWrite if write else HostRead
        return self.add(cls(self.view(name), (0, 0), 0, False, self.owners[name]))

    def scope(self, mode: str) -> None:
        self.add(ScopeBegin(mode))

    def end(self) -> None:
        self.add(ScopeEnd())


def edges(b: Builder) -> set[tuple[int, int, str]]:
    return {(e.src, e.dst, e.reason) for e in model(b.trace).edges}


def test_input_after_inout_waits_for_the_writer_through_the_tensormap():
    b = Builder("x")
    w = b.task(("x", "INOUT"))
    r = b.task(("x", "INPUT"))
    assert (w, r, "tensormap") in edges(b)
    assert failing(find_hazards(b.trace)) == []


def test_output_existing_registers_a_writer_without_waiting_for_earlier_ones():
    b = Builder("x")
    first = b.task(("x", "OUTPUT_EXISTING"))
    second = b.task(("x", "OUTPUT_EXISTING"))
    reader = b.task(("x", "INPUT"))
    got = edges(b)
    assert (first, second, "tensormap") not in got
    assert {(first, reader, "tensormap"), (second, reader, "tensormap")} <= got
    [hazard] = failing(find_hazards(b.trace))
    assert (hazard.kind, hazard.first, hazard.second) == ("WAW", first, second)


def test_readers_are_not_tracked_so_write_after_read_is_a_hazard():
    b = Builder("x")
    reader = b.task(("x", "INPUT"))
    writer = b.task(("x", "INOUT"))
    assert edges(b) == set()
    [hazard] = failing(find_hazards(b.trace))
    assert (hazard.kind, hazard.first, hazard.second) == ("WAR", reader, writer)


def test_inout_retires_covered_entries_but_the_closure_keeps_the_order():
    b = Builder("x")
    first = b.task(("x", "INOUT"))
    second = b.task(("x", "INOUT"))
    reader = b.task(("x", "INPUT"))
    got = edges(b)
    assert (first, reader, "tensormap") not in got and (second, reader, "tensormap") in got
    assert model(b.trace).ordered(first, reader)


def test_disjoint_slices_do_not_wait_and_overlapping_ones_do():
    b = Builder("x")
    top = b.task(("x", "INOUT", (0, 8)))
    bottom = b.task(("x", "INOUT", (8, 16)))
    middle = b.task(("x", "INPUT", (4, 12)))
    got = edges(b)
    assert (top, bottom, "tensormap") not in got
    assert {(top, middle, "tensormap"), (bottom, middle, "tensormap")} <= got


def test_creator_retention_covers_every_tag_but_output_in_auto_scopes():
    b = Builder()
    producer = b.task(outputs=("made",))
    no_dep = b.task(("made", "NO_DEP"))
    existing = b.task(("made", "OUTPUT_EXISTING"))
    got = edges(b)
    assert (producer, no_dep, "creator") in got and (producer, existing, "creator") in got


def test_manual_dep_turns_off_lookup_but_keeps_the_creator():
    b = Builder()
    b.alloc("t", manual_dep=True)
    writer = b.task(("t", "INOUT"), manual_dep=True)
    reader = b.task(("t", "INPUT"), manual_dep=True)
    assert all(reason == "creator" for _, _, reason in edges(b))
    # the pair is unordered, and waived: the user opted out of tracking the tensor
    [hazard] = find_hazards(b.trace)
    assert (hazard.kind, hazard.first, hazard.second) == ("RAW", writer, reader)
    assert hazard.waived == "a manual_dep tensor" and failing([hazard]) == []


def test_manual_scopes_use_explicit_dependencies_only():
    b = Builder("x")
    b.scope("manual")
    producer = b.task(outputs=("made",), mode="manual")
    unordered = b.task(("made", "INPUT"), mode="manual")
    ordered = b.task(("made", "INPUT"), mode="manual", deps=(producer,))
    b.end()
    assert edges(b) == {(producer, ordered, "explicit")}
    [hazard] = failing(find_hazards(b.trace))
    assert (hazard.kind, hazard.first, hazard.second) == ("RAW", producer, unordered)


def test_writes_in_a_manual_scope_are_not_published_to_later_auto_tasks():
    b = Builder("x")
    b.scope("manual")
    writer = b.task(("x", "INOUT"), mode="manual")
    b.end()
    reader = b.task(("x", "INPUT"))
    assert edges(b) == set()
    assert [(h.kind, h.first, h.second) for h in failing(find_hazards(b.trace))] == [("RAW", writer, reader)]


def test_a_dummy_tasks_slots_are_no_accesses_but_still_producers():
    """A dummy runs no kernel (runtime-api, rt_submit_dummy_task): an INOUT slot on it (a host
    fence) conflicts with no later writer, yet a later lookup waits for it as a producer."""
    b = Builder("y")
    fence = b.task(("y", "INOUT"), kind="dummy")
    reader = b.task(("y", "INPUT"))
    b.scope("manual")
    b.task(("y", "INOUT"), mode="manual")
    b.end()
    assert (fence, reader, "tensormap") in edges(b)
    assert [(h.kind, h.first) for h in failing(find_hazards(b.trace))] == [("WAR", reader)]


def test_a_host_read_waits_for_producers_and_orders_everything_after_it():
    b = Builder("x", "y")
    writer = b.task(("x", "INOUT"))
    read = b.host("x")
    later = b.task(("y", "INOUT"))
    runtime = model(b.trace)
    assert (writer, read, "host") in edges(b)
    assert runtime.ordered(writer, read) and runtime.ordered(read, later) and runtime.ordered(writer, later)


def test_a_host_write_also_waits_for_the_producers_consumers():
    b = Builder("x")
    b.task(("x", "INOUT"))
    reader = b.task(("x", "INPUT"))
    write = b.host("x", write=True)
    assert model(b.trace).ordered(reader, write)
    assert failing(find_hazards(b.trace)) == []


def test_a_host_write_does_not_wait_for_untracked_readers():
    b = Builder("x")
    reader = b.task(("x", "INPUT"))
    write = b.host("x", write=True)
    [hazard] = failing(find_hazards(b.trace))
    assert (hazard.kind, hazard.first, hazard.second) == ("WAR", reader, write)


def test_use_after_the_allocating_scope_ended_is_a_warning_not_a_hazard():
    b = Builder()
    b.scope("auto")
    b.alloc("t")
    b.task(("t", "INOUT"))
    b.end()
    b.task(("t", "INPUT"))
    runtime = model(b.trace)
    assert len(runtime.warnings) == 1 and "after the runtime scope that allocated it ended" in runtime.warnings[0]
    assert failing(find_hazards(b.trace, runtime)) == []


def test_a_dependency_on_an_unknown_task_is_refused():
    b = Builder("x")
    b.add(Task(7, "kernel", (-1, 0, -1), (), (), (3,), "auto"))
    with pytest.raises(ModelError, match="not an earlier task"):
        model(b.trace)


def test_a_waived_no_dep_slot_does_not_excuse_another_slot_of_the_same_task():
    # found by the oracle comparison: the second task reads x through pl.no_dep (waived) and
    # also overwrites it (a real write-after-write the runtime does not order).
    b = Builder("x")
    first = b.task(("x", "OUTPUT_EXISTING"))
    second = b.task(("x", "NO_DEP"), ("x", "OUTPUT_EXISTING"))
    [hazard] = find_hazards(b.trace)
    assert (hazard.kind, hazard.first, hazard.second, hazard.waived) == ("WAW", first, second, None)


# Issue 21: the rules of runtime-api.md section 11 for host element access, line by line.


def test_a_host_write_waits_for_the_creator_of_a_runtime_made_tensor():
    b = Builder()
    producer = b.task(outputs=("made",))
    write = b.host("made", write=True)
    assert (producer, write, "host") in edges(b) and failing(find_hazards(b.trace)) == []


def test_a_host_write_does_not_wait_for_the_readers_of_a_tensor_whose_only_writer_is_its_creator():
    # "each producer's consumers": the creator is no TensorMap producer, so the task that only
    # reads the tensor it made is not waited for (the conservative reading of section 11)
    b = Builder()
    b.task(outputs=("made",))
    reader = b.task(("made", "INPUT"))
    write = b.host("made", write=True)
    [hazard] = failing(find_hazards(b.trace))
    assert (hazard.kind, hazard.first, hazard.second) == ("WAR", reader, write)


def test_a_host_read_does_not_see_a_write_made_in_a_manual_scope():
    b = Builder("x")
    b.scope("manual")
    writer = b.task(("x", "INOUT"), mode="manual")
    b.end()
    read = b.host("x")
    assert edges(b) == set()
    [hazard] = failing(find_hazards(b.trace))
    assert (hazard.kind, hazard.first, hazard.second) == ("RAW", writer, read)


def test_output_existing_retires_no_entry_so_a_later_reader_waits_for_both_writers():
    b = Builder("x")
    first = b.task(("x", "INOUT"))
    second = b.task(("x", "OUTPUT_EXISTING"))
    reader = b.task(("x", "INPUT"))
    assert {(first, reader, "tensormap"), (second, reader, "tensormap")} <= edges(b)


def test_a_host_write_waits_for_the_consumers_of_every_overlapping_producer_only():
    b = Builder("x")
    top = b.task(("x", "INOUT", (0, 8)))
    bottom = b.task(("x", "INOUT", (8, 16)))
    reads_top = b.task(("x", "INPUT", (0, 8)))
    reads_bottom = b.task(("x", "INPUT", (8, 16)))
    write = b.host("x", write=True)  # element (0, 0): the top rows
    runtime = model(b.trace)
    assert runtime.ordered(top, write) and runtime.ordered(reads_top, write)
    assert not runtime.ordered(bottom, write) and not runtime.ordered(reads_bottom, write)
