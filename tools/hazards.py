"""The hazard checker: every conflicting pair of accesses must be ordered by the runtime.

An *access* is a tensor slot of a kernel task (INPUT and NO_DEP read, OUTPUT and OUTPUT_EXISTING
write, INOUT reads and writes) or a host element read or write. A dummy task's slots are no
accesses: no kernel runs (runtime-api, ``rt_submit_dummy_task``); they only place it in the
TensorMap, which the runtime model orders by. Two accesses of one buffer, in
program order, with overlapping regions (``trace.region``), at least one a write, of different
nodes, form a read-after-write, write-after-write or write-after-read pair; the runtime model
(``tools/runtime_model.py``) must order the earlier node before the later one by the transitive
closure of its edges, or the pair is a *hazard*.

Three kinds of pair are *waived*, not failed, because the program declares them independent or
untracked: a pair with a ``pl.no_dep`` slot, a pair with an access through a ``manual_dep``
tensor (the user opted out of tracking it), and a pair of tasks in different iterations of one
``pl.parallel`` loop (the trace's ``par`` annotations, which only the reference interpreter
records; ``with_parallel`` copies them onto another trace that agrees with it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .runtime_model import Model, model
from .trace import (
    READ_TAGS,
    WRITE_TAGS,
    Box,
    HostRead,
    HostWrite,
    ScopeBegin,
    ScopeEnd,
    Task,
    Trace,
    element_box,
    overlaps,
    region,
)


@dataclass(frozen=True)
class Access:
    event: int
    buffer: str
    box: Box
    read: bool
    write: bool
    no_dep: bool
    manual_dep: bool = False


@dataclass(frozen=True)
class Hazard:
    kind: str  # "RAW" | "WAW" | "WAR"
    first: int  # event index of the earlier node
    second: int
    buffer: str
    first_box: Box
    second_box: Box
    waived: str | None = None  # why the program declares the pair independent


def accesses(trace: Trace) -> list[Access]:
    out = []
    for index, event in enumerate(trace.events):
        if isinstance(event, Task) and event.kind != "dummy":
            for arg in event.tensors:
                box = region(arg.view, trace.base(arg.view.buffer))
                out.append(Access(index, arg.view.buffer, box, arg.tag in READ_TAGS, arg.tag in WRITE_TAGS,
                                  arg.tag == "NO_DEP", arg.manual_dep))
        elif isinstance(event, (HostRead, HostWrite)):
            box = element_box(event.view, event.index, trace.base(event.view.buffer))
            write = isinstance(event, HostWrite)
            out.append(Access(index, event.view.buffer, box, not write, write, False, event.manual_dep))
    return out


def independent(a, b) -> bool:
    """Tasks in different iterations of one pl.parallel loop instance."""
    iterations = dict(getattr(a, "par", ()))
    return any(loop in iterations and iterations[loop] != it for loop, it in getattr(b, "par", ()))


def find_hazards(
    trace: Trace, runtime: Model | None = None, *, unordered: bool = False, among: dict[int, int] | None = None
) -> list[Hazard]:
    """Every unordered conflicting pair (waived ones included, with their reason), in order.

    With ``unordered``, every conflicting pair, as if the runtime ordered nothing. With ``among``
    (the later node's event index -> a bitset of event indices of earlier nodes), only the pairs
    it names: those of the full result whose nodes it pairs (a pair's hazard is chosen among
    the accesses of its own two nodes only).

    Per buffer, the earlier accesses are filed by box, each box with a bitset of the events that
    read it and of those that write it; a later access takes the union over the boxes it
    overlaps, less the events the runtime orders before it, and only the events left (the
    unordered pairs, few) are looked at one by one. The result is the pairwise definition's.

    Every access is a node of the model, so the runtime orders before an access every access
    below its closure's floor (``Model.reach_of``): the bitsets hold the events from a window base
    on, and the base rises to the lowest floor of the buffer's accesses still to come once that
    drops at least half of the window (a box left empty is dropped). A program whose floors rise
    with it (a loop of ordered steps) costs time linear in its accesses, not in their square."""
    runtime = None if unordered else runtime or model(trace)
    by_buffer: dict[str, list[tuple[int, Access]]] = {}  # buffer -> (its box's id, access), in order
    box_ids: dict[Box, int] = {}
    for access in accesses(trace):
        by_buffer.setdefault(access.buffer, []).append((box_ids.setdefault(access.box, len(box_ids)), access))
    found: dict[tuple[int, int, str], Hazard] = {}
    overlap: dict[tuple[int, int], bool] = {}
    reach_of = runtime.reach_of if runtime is not None else None
    for buffer, items in by_buffer.items():
        lowest = _lowest_floors(items, reach_of)
        base = 0  # bit j of a box's bitsets is event base + j
        boxes: dict[int, _Filed] = {}
        for position, (box_id, b) in enumerate(items):
            floor, rest = reach_of(b.event) if reach_of is not None else (0, 0)
            if lowest[position] - base > max(_LEAST_SHIFT, (b.event - base) >> 1):
                base = _rebase(boxes, base, lowest[position])
            candidates = 0
            near: list[_Filed] = []
            for other, filed in boxes.items():
                key = (other, box_id)
                hit = overlap.get(key)
                if hit is None:
                    hit = overlap[key] = overlaps(filed.box, b.box)
                if hit:
                    near.append(filed)
                    candidates |= filed.any if b.write else filed.writes
            low = max(floor, base)  # bit j of ``candidates`` is event low + j from here on
            candidates >>= low - base
            if rest:
                candidates &= ~(rest >> (low - floor))
            if b.event >= low:
                candidates &= ~(1 << (b.event - low))
            if among is not None:
                candidates &= among.get(b.event, 0) >> low
            while candidates:
                bit = candidates & -candidates
                candidates ^= bit
                event = low + bit.bit_length() - 1
                pairs = sorted(p for filed in near for p in filed.by_event.get(event, ()))
                for _, a in pairs:  # in program order, as the pairwise definition meets them
                    if a.write or b.write:
                        _record(found, trace, buffer, a, b)
            filed = boxes.get(box_id)
            if filed is None:
                filed = boxes[box_id] = _Filed(b.box)
            filed.add(position, b, b.event - base)
    return sorted(found.values(), key=lambda h: (h.second, h.first, h.buffer))


_LEAST_SHIFT = 64  # a window's base rises by at least this many events (a test lowers it)


def _lowest_floors(items: list, reach_of) -> list[int]:
    """Per position of one buffer's accesses: the lowest closure floor of that access and the later
    ones (every event below it is ordered before each of them); all 0 without a runtime."""
    if reach_of is None:
        return [0] * len(items)
    out = [0] * len(items)
    lowest = None
    for position in range(len(items) - 1, -1, -1):
        floor = reach_of(items[position][1].event)[0]
        lowest = floor if lowest is None or floor < lowest else lowest
        out[position] = lowest
    return out


def _rebase(boxes: dict, base: int, new_base: int) -> int:
    """Drop the events below ``new_base`` from every box (and every box left with none)."""
    shift = new_base - base
    for key in list(boxes):
        filed = boxes[key]
        filed.any >>= shift
        filed.writes >>= shift
        if filed.any:
            filed.by_event = {e: v for e, v in filed.by_event.items() if e >= new_base}
        else:
            del boxes[key]
    return new_base


class _Filed:
    """The earlier accesses of one buffer with one box: bitsets of their events (from the window's
    base on), and the accesses by event."""

    __slots__ = ("box", "any", "writes", "by_event")

    def __init__(self, box: Box):
        self.box = box
        self.any = 0
        self.writes = 0
        self.by_event: dict[int, list[tuple[int, Access]]] = {}  # event -> (position, access)

    def add(self, position: int, access: Access, bit_index: int) -> None:
        bit = 1 << bit_index
        self.any |= bit
        if access.write:
            self.writes |= bit
        self.by_event.setdefault(access.event, []).append((position, access))


def _record(found: dict, trace: Trace, buffer: str, a: Access, b: Access) -> None:
    """File the pair (a, b), ``a`` first, unless a worse hazard between its tasks is filed."""
    kind = "RAW" if a.write and b.read else "WAW" if a.write and b.write else "WAR"
    waived = None
    if a.no_dep or b.no_dep:
        waived = "a pl.no_dep argument"
    elif a.manual_dep or b.manual_dep:
        waived = "a manual_dep tensor"
    elif independent(trace.events[a.event], trace.events[b.event]):
        waived = "different iterations of one pl.parallel loop"
    key = (a.event, b.event, buffer)
    hazard = Hazard(kind, a.event, b.event, buffer, a.box, b.box, waived)
    previous = found.get(key)
    if previous is None or _severity(hazard) < _severity(previous):
        found[key] = hazard


_RANK = {"RAW": 0, "WAW": 1, "WAR": 2}


def _severity(hazard: Hazard) -> tuple[bool, int]:
    """Which of two hazards between the same tasks to report: a failing one before a waived one
    (one waived slot does not excuse another), then RAW, WAW, WAR."""
    return hazard.waived is not None, _RANK[hazard.kind]


def failing(hazards: list[Hazard]) -> list[Hazard]:
    return [h for h in hazards if h.waived is None]


def with_parallel(reference: Trace, other: Trace) -> Trace:
    """``other`` with the reference's ``par`` annotations, event for event (the traces must agree)."""
    ref = [e for e in reference.events if isinstance(e, (Task, HostRead, HostWrite))]
    events = []
    k = 0
    for event in other.events:
        if isinstance(event, (Task, HostRead, HostWrite)):
            event = replace(event, par=ref[k].par) if k < len(ref) else event
            k += 1
        events.append(event)
    return Trace(other.buffers, events)


def manual_scopes(trace: Trace) -> dict[int, int]:
    """Event index -> the instance number of the outermost MANUAL scope it runs in (events outside
    every manual scope are absent)."""
    out: dict[int, int] = {}
    stack: list[str] = []
    instance = -1
    for index, event in enumerate(trace.events):
        if isinstance(event, ScopeBegin):
            if event.mode == "manual" and "manual" not in stack:
                instance += 1
            stack.append(event.mode)
        elif isinstance(event, ScopeEnd):
            if stack:
                stack.pop()
        elif "manual" in stack:
            out[index] = instance
    return out


def in_one_manual_scope(trace: Trace, hazard: Hazard, scopes: dict[int, int] | None = None) -> bool:
    """Both nodes of the pair run in one instance of a MANUAL scope, where the user owns ordering."""
    scopes = manual_scopes(trace) if scopes is None else scopes
    first = scopes.get(hazard.first)
    return first is not None and first == scopes.get(hazard.second)


def describe_node(trace: Trace, index: int, numbers: dict[int, int]) -> str:
    event = trace.events[index]
    if isinstance(event, Task):
        what = event.kernel or ("dummy" if event.kind == "dummy" else f"launch {list(event.launch or ())}")
        text = f"task {numbers[index]} ({what})"
    else:
        text = "host " + ("read" if isinstance(event, HostRead) else "write")
    return text + (f" at line {event.line}" if event.line else "")


def describe(trace: Trace, hazard: Hazard, numbers: dict[int, int] | None = None) -> str:
    """One line about ``hazard``; ``numbers`` is ``task_numbers(trace)``, when the caller has it."""
    numbers = task_numbers(trace) if numbers is None else numbers
    buf = trace.buffers[hazard.buffer]
    name = buf.label or hazard.buffer
    if buf.origin == "entry":
        name = f"{name} (entry tensor {buf.slot})"
    text = (
        f"{hazard.kind} on {name}: {describe_node(trace, hazard.first, numbers)} touches {hazard.first_box}, "
        f"{describe_node(trace, hazard.second, numbers)} touches {hazard.second_box}, and the runtime does not "
        f"order them"
    )
    if hazard.waived:
        text += f" (waived: {hazard.waived})"
    return text


def task_numbers(trace: Trace) -> dict[int, int]:
    """Event index -> the task's number in submission order (as ``canonical`` counts them)."""
    numbers = {}
    for index, event in enumerate(trace.events):
        if isinstance(event, Task):
            numbers[index] = len(numbers)
    return numbers


def summary(trace: Trace, hazards: list[Hazard], runtime: Model) -> list[str]:
    """Human-readable lines: hazards first, then waived pairs, then lifetime warnings."""
    numbers = task_numbers(trace)
    lines = [f"hazard: {describe(trace, h, numbers)}" for h in failing(hazards)]
    lines += [f"waived: {describe(trace, h, numbers)}" for h in hazards if h.waived]
    lines += [f"warning: {w}" for w in runtime.warnings]
    return lines
