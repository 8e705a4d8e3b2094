"""Value semantics: which write each read of a trace observes (issue 21).

The hazard checker proves that the runtime runs every conflicting pair in program order; this
module says what program order *means*, so that a pass which changes the meaning while keeping
its edges consistent (placing a ``pl.assemble`` source inside its target, for one) is caught.

``observations(trace)`` replays a trace in its sequential meaning: each kernel task runs whole,
in submission order, reading every element of its INPUT, INOUT and NO_DEP slots and then writing
every element of its OUTPUT, INOUT and OUTPUT_EXISTING slots; a host element write writes one
element; a ``Copy`` (``pl.assemble`` as written: the source's elements into the target's rows)
gives each target element the version of the source element it copies. Dummy tasks run no
kernel and touch nothing. An element's *version* says who wrote it last and which element of
what they wrote it is, so that an element that lands elsewhere (a view transposed, sliced at
another offset or reshaped otherwise than the program's) is a different version:

- ``("task", k, slot, index)``: the k-th kernel task (counted among kernel tasks, as
  ``canonical`` does), as the element at ``index`` (the kernel's index into the view, row-major
  order of its shape) of its tensor slot ``slot``;
- ``("host", k)``: the k-th host element write;
- ``("entry", slot, flat)``: the entry tensor's initial element at flat offset ``flat`` of its
  buffer (never written in the run);
- ``("fill", bits)``: the fill value of a created buffer;
- ``UNDEFINED``: an element of a created buffer without a fill that nobody wrote.

An observation is, for one read (a task's read slot, or a host element read), the version of
every element it reads, in the view's row-major order. ``compare_values(written, emitted,
directions)`` matches the reads of two traces of one program (task reads by task number and slot,
each slot read and written as its kernel parameter declares, ``In`` read, ``Out`` written,
``InOut`` both, and as the program as written tags it for a kernel ``directions`` does not name:
a call-site tag says what the runtime orders, and a program may tag an ``Out`` argument INOUT to
order it after an earlier writer of its buffer, which the kernel does not read; host reads by
source line and occurrence, as a pass may drop a dead one) and returns every read whose versions differ,
every task's read of a view of another shape (the kernel's indices are the view's), and every task
that reads one slot and writes another sharing elements with it in the emitted program only
(the kernel may read what it already overwrote). An ``UNDEFINED`` element of the program as written matches anything (the
program reads memory it never set).

The end of a program that did not go fatal reads every element of every ``Out`` / ``InOut`` tensor
parameter (``compare_values``' ``outputs``; ``final_views``): what the caller is left with is
compared too, though nothing inside the program reads it. Its mismatch names the parameter and
the element (``the end of the program reads element [6, 0] of output parameter a``). Every
element is replayed once: linear in the trace's elements and the parameters' sizes.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from .trace import Copy, HostRead, HostWrite, Task, Trace, View, row_major_strides

UNDEFINED = ("undefined",)
READS = frozenset({"INPUT", "INOUT", "NO_DEP"})
WRITES = frozenset({"OUTPUT", "INOUT", "OUTPUT_EXISTING"})


@dataclass(frozen=True)
class Read:
    """One read: ``key`` matches it across traces; ``what`` describes it; ``versions`` per element."""

    key: tuple
    what: str
    buffer: str
    positions: tuple[tuple[int, ...], ...]
    versions: tuple[tuple, ...]


@dataclass(frozen=True)
class Mismatch:
    read: Read  # the read as the program as written makes it
    position: tuple[int, ...]  # the first element (view index) that differs
    written: tuple
    emitted: tuple
    text: str = ""  # instead, the mismatch in words: a task whose slots share elements in the emitted
    # program only, or a task's read of a view of another shape than the program as written's

    def __str__(self) -> str:
        if self.text:
            return self.text
        return (
            f"{self.read.what} reads element {list(self.position)} of {self.read.buffer}: the program as written "
            f"observes {describe(self.written)}, the emitted program {describe(self.emitted)}"
        )


def describe(version: tuple) -> str:
    kind = version[0]
    if kind == "task":
        return f"the write of task {version[1]} (slot {version[2]}, element {list(version[3])})"
    if kind == "host":
        return f"host write {version[1]}"
    if kind == "entry":
        return f"the entry tensor's initial element (slot {version[1]}, offset {version[2]})"
    if kind == "fill":
        return f"the fill value (bits {version[1]:#x})"
    if kind == "absent":
        return "no such read"
    return "an element nobody wrote"


def positions(view: View) -> list[tuple[tuple[int, ...], int]]:
    """(view index, flat offset in the buffer) of every element of a view, row-major."""
    indices, flats = _elements(view)
    return list(zip(indices, flats))


@functools.lru_cache(maxsize=4096)
def _elements(view: View) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """``positions(view)`` as (the view indices, the flat offsets), made once per view (a program
    reads and writes the same few views many times; the index tuples are then shared)."""
    indices = tuple(itertools.product(*(range(extent) for extent in view.shape)))
    return indices, tuple(view.offset + sum(i * s for i, s in zip(index, view.strides)) for index in indices)


def tags(trace: Trace, directions: dict[str, tuple[str, ...]] | None = None) -> list[tuple[str, ...]]:
    """The tag of every tensor slot of every kernel task, in order. With ``directions`` (kernel
    name -> the direction of each of its tensor parameters, ``In``, ``Out`` or ``InOut``), a slot of
    a kernel it names gets the tag its parameter's direction means (``INPUT``, ``OUTPUT``,
    ``INOUT``) instead of its call-site tag: what the kernel reads and writes, not how the runtime
    tracks it (a program may tag an ``Out`` argument ``INOUT`` to order it after an earlier
    writer, and a ``pl.no_dep`` argument is read or written as its parameter says)."""
    out = []
    for e in trace.events:
        if not (isinstance(e, Task) and e.kind == "kernel"):
            continue
        declared = (directions or {}).get(e.kernel or "")
        if declared is not None and len(declared) == len(e.tensors):
            out.append(tuple(_BY_DIRECTION[d] for d in declared))
        else:
            out.append(tuple(arg.tag for arg in e.tensors))
    return out


_BY_DIRECTION = {"In": "INPUT", "Out": "OUTPUT", "InOut": "INOUT"}


def observations(
    trace: Trace, kinds: list[tuple[str, ...]] | None = None, finals: tuple[tuple[str, View], ...] = ()
) -> list[Read]:
    """Every read of ``trace`` with the versions it observes (see the module docstring). What a
    slot reads and writes is its tag, or, with ``kinds``, the tag ``kinds`` gives the same slot
    (``compare_values`` gives each slot its kernel parameter's direction, ``tags``: what the kernel
    does with its argument, not how the runtime tracks it). With ``finals`` ((parameter name,
    view)), the end of the program reads every element of each view, keyed ``("final", name)``
    (``final_views``), last; a trace that went fatal has no end."""
    return list(_observe(trace, kinds, finals))


def _last_reads(trace: Trace, kinds: list[tuple[str, ...]] | None, finals: tuple[tuple[str, View], ...]) -> dict[str, int]:
    """buffer -> the position in ``trace.events`` of the last event that reads it (a task's read
    slot, a host element read, a copy's source; ``len(events)`` for a buffer the end of the
    program reads, ``finals``): a write after that position is never observed, and what
    ``_observe`` holds of the buffer can go once that event is done."""
    last: dict[str, int] = {}
    tasks = 0
    for position, event in enumerate(trace.events):
        if isinstance(event, Task):
            if event.kind != "kernel":
                continue
            slot_tags = kinds[tasks] if kinds is not None else tuple(arg.tag for arg in event.tensors)
            for slot, arg in enumerate(event.tensors):
                if slot_tags[slot] in READS:
                    last[arg.view.buffer] = position
            tasks += 1
        elif isinstance(event, HostRead):
            last[event.view.buffer] = position
        elif isinstance(event, Copy):
            last[event.source.buffer] = position
    for _, view in finals:
        last[view.buffer] = len(trace.events)
    return last


def _observe(trace: Trace, kinds: list[tuple[str, ...]] | None, finals: tuple[tuple[str, View], ...]) -> Iterator[Read]:
    """``observations``, one read at a time: a caller that compares and drops each holds none.
    Only what a later read observes is kept (``_last_reads``): a write no later event reads is not
    recorded, and a buffer's elements are dropped after its last read, so that a program of many
    short-lived tensors is replayed in the memory of those alive at once."""
    memory: dict[str, dict[int, tuple]] = {name: {} for name in trace.buffers}
    last_read = _last_reads(trace, kinds, finals)

    def version(buffer: str, flat: int) -> tuple:
        found = memory[buffer].get(flat)
        if found is not None:
            return found
        buf = trace.buffers[buffer]
        if buf.origin == "entry":
            return ("entry", buf.slot, flat)
        return ("fill", buf.init) if buf.init is not None else UNDEFINED

    def versions(buffer: str, flats: tuple[int, ...]) -> tuple[tuple, ...]:
        """``version`` of each of ``flats``; an element read before any write gets its initial
        version in ``memory`` (what ``version`` would give it until a write), so that the next
        read of it is a plain look-up."""
        held = memory[buffer]
        found = tuple(map(held.get, flats))
        if None in found:
            for flat in flats:
                if flat not in held:
                    held[flat] = version(buffer, flat)
            found = tuple(map(held.get, flats))
        return found

    def label(buffer: str) -> str:
        buf = trace.buffers[buffer]
        name = buf.label or buffer
        return f"{name} (entry tensor {buf.slot})" if buf.origin == "entry" else name

    tasks = host_writes = 0
    host_reads: dict[int | None, int] = {}
    waits: set[str] = set()  # buffers a dummy task creates: a compiled host wait reads one, for its wait only
    def observed(buffer: str, position: int) -> bool:
        """Whether an event after ``position`` reads ``buffer``: a write there is recorded."""
        return last_read.get(buffer, -1) > position

    for position, event in enumerate(trace.events):
        if isinstance(event, Task):
            if event.kind != "kernel":
                waits.update(arg.view.buffer for arg in event.tensors if arg.tag == "OUTPUT")
                continue
            at = f" at line {event.line}" if event.line else ""
            slot_tags = kinds[tasks] if kinds is not None else tuple(arg.tag for arg in event.tensors)
            for slot, arg in enumerate(event.tensors):
                if slot_tags[slot] in READS:
                    indices, flats = _elements(arg.view)
                    yield Read(
                        ("task", tasks, slot), f"task {tasks} ({event.kernel or 'kernel'}){at}, slot {slot},",
                        label(arg.view.buffer), indices, versions(arg.view.buffer, flats),
                    )
            for slot, arg in enumerate(event.tensors):
                if slot_tags[slot] in WRITES and observed(arg.view.buffer, position):
                    indices, flats = _elements(arg.view)
                    memory[arg.view.buffer].update(zip(flats, [("task", tasks, slot, index) for index in indices]))
            tasks += 1
            for arg in event.tensors:
                if last_read.get(arg.view.buffer) == position:
                    memory[arg.view.buffer] = {}
        elif isinstance(event, HostWrite):
            if observed(event.view.buffer, position):
                [(_, flat)] = positions(_element(event.view, event.index))
                memory[event.view.buffer][flat] = ("host", host_writes)
            host_writes += 1
        elif isinstance(event, HostRead) and event.view.buffer not in waits:
            occurrence = host_reads.get(event.line, 0)
            host_reads[event.line] = occurrence + 1
            [(_, flat)] = positions(_element(event.view, event.index))
            at = f" at line {event.line}" if event.line else ""
            yield Read(("get", event.line, occurrence), f"host read{at} (run {occurrence})",
                       label(event.view.buffer), (tuple(event.index),), (version(event.view.buffer, flat),))
            if last_read.get(event.view.buffer) == position:
                memory[event.view.buffer] = {}
        elif isinstance(event, Copy):
            source = [version(event.source.buffer, flat) for _, flat in positions(event.source)]
            if observed(event.target.buffer, position):
                for (_, flat), value in zip(positions(event.target), source):
                    memory[event.target.buffer][flat] = value
            if last_read.get(event.source.buffer) == position:
                memory[event.source.buffer] = {}
    if trace.fatal() is None:
        for name, view in finals:
            indices, flats = _elements(view)
            yield Read(
                ("final", name), "the end of the program", f"output parameter {name}", indices,
                versions(view.buffer, flats),
            )


def final_views(trace: Trace, outputs: dict[int, str], returned: bool = False) -> tuple[tuple[str, View], ...]:
    """(name, view) of what the caller holds at the end of the program in each output parameter
    (``outputs``: entry tensor slot -> the ``Out`` / ``InOut`` parameter's name): the parameter's
    whole entry tensor; with ``returned``, for a parameter the function returns under its name
    (an SSA version of it, ``y__ssa_v1``) a tensor of a buffer a ``pl.create_tensor`` bound to
    the parameter's own name made (``y = pl.create_tensor(...)``), that tensor (the program as
    written before ``place_returned_creates_in_output_params`` makes the create the parameter).
    A returned tensor of another buffer (another parameter's, another name's create, an output
    the runtime allocates) is no copy into the caller's tensor (the compiler warns of it,
    ``check_output_params_written``): the caller's parameter keeps its own buffer's contents."""
    from nanopass.passes.naming import base_name

    entries = {buf.slot: buf for buf in trace.buffers.values() if buf.origin == "entry"}
    given = {}
    if returned:
        for name, view in trace.returned:
            given.setdefault(base_name(name), view)
    out = []
    for slot, name in sorted(outputs.items()):
        buf = entries.get(slot)
        if buf is None:
            continue
        view = given.get(name)
        made = trace.buffers[view.buffer] if view is not None else None
        if made is None or made.origin != "alloc" or base_name(made.label) != name:
            view = View(buf.name, 0, buf.shape, row_major_strides(buf.shape))
        out.append((name, view))
    return tuple(out)


def _element(view: View, index: tuple[int, ...]) -> View:
    offset = view.offset + sum(i * s for i, s in zip(index, view.strides))
    return View(view.buffer, offset, (), ())


def compare_values(
    written: Trace, emitted: Trace, directions: dict[str, tuple[str, ...]] | None = None,
    outputs: dict[int, str] | None = None,
) -> list[Mismatch]:
    """The reads whose observed versions differ between the program as written and the emitted
    program (one mismatch per read, at its first differing element, or of its shape when a task's
    read view has another shape in the emitted program). The traces must run the same
    kernel tasks (``check`` has compared them); a read the emitted program makes that the program
    as written does not is a mismatch too. What each slot reads and writes is its kernel
    parameter's direction when ``directions`` names the kernel (``tags``), else the program as
    written's tag. ``outputs`` (entry tensor slot -> name of each ``Out`` / ``InOut`` tensor
    parameter): the end of the program reads every element of each (``final_views``: in the
    program as written, the tensor it returns as the parameter), so that what the caller is left
    with is compared too."""
    kinds = tags(written, directions)
    if [len(k) for k in kinds] != [len(k) for k in tags(emitted)]:
        raise ValueError("the traces do not run the same kernel tasks with the same slots")
    outputs = outputs or {}
    mine = _Counterparts(_observe(written, kinds, final_views(written, outputs, returned=True)))
    out = []
    for read in _observe(emitted, kinds, final_views(emitted, outputs)):
        theirs = mine.get(read.key)
        if theirs is None:
            out.append(Mismatch(read, (), ("absent",), read.versions[0] if read.versions else UNDEFINED))
            continue
        if read.key[0] in ("task", "final") and read.positions != theirs.positions:
            text = (f"{theirs.what} reads a view of shape {_shape(read.positions)} of {read.buffer}, the program as "
                    f"written one of shape {_shape(theirs.positions)} of {theirs.buffer}")
            out.append(Mismatch(theirs, (), UNDEFINED, UNDEFINED, text))
            continue
        if read.versions == theirs.versions:
            continue
        for position, want, got in zip(theirs.positions, theirs.versions, read.versions):
            if want != UNDEFINED and want != got:
                out.append(Mismatch(theirs, position, want, got))
                break
    return out + _new_aliases(written, emitted, kinds)


class _Counterparts:
    """The reads of the program as written, looked up by key as the emitted program's reads come:
    both traces make their reads in nearly the same order, so the reads are drawn from the
    program as written only as far as the key asked for, and each is dropped once matched (the
    ones drawn past on the way wait in ``waiting``)."""

    def __init__(self, reads: Iterator[Read]):
        self.reads = reads
        self.waiting: dict[tuple, Read] = {}

    def get(self, key: tuple) -> Read | None:
        found = self.waiting.pop(key, None)
        if found is not None:
            return found
        for read in self.reads:
            if read.key == key:
                return read
            self.waiting[read.key] = read
        return None


def _new_aliases(written: Trace, emitted: Trace, kinds: list[tuple[str, ...]]) -> list[Mismatch]:
    """Tasks that read one slot and write another sharing elements with it in the emitted program
    but not in the program as written: the kernel may read what it has already overwritten."""
    out = []
    for number, (mine, theirs, slot_tags) in enumerate(zip(_kernel_tasks(written), _kernel_tasks(emitted), kinds)):
        for i, j in itertools.permutations(range(len(slot_tags)), 2):
            if slot_tags[i] not in READS or slot_tags[j] not in WRITES:
                continue
            if _share(theirs.tensors[i].view, theirs.tensors[j].view) and not _share(mine.tensors[i].view, mine.tensors[j].view):
                at = f" at line {theirs.line}" if theirs.line else ""
                text = (f"task {number} ({theirs.kernel or 'kernel'}){at} reads slot {i} and writes slot {j}, which "
                        f"share elements in the emitted program but not in the program as written")
                read = Read(("task", number, i), text, theirs.tensors[i].view.buffer, (), ())
                out.append(Mismatch(read, (), UNDEFINED, UNDEFINED, text))
                break
    return out


def _shape(positions: tuple[tuple[int, ...], ...]) -> list[int]:
    """The shape of a view from its elements' indices, in row-major order."""
    return [i + 1 for i in positions[-1]] if positions else [0]


def _kernel_tasks(trace: Trace) -> list[Task]:
    return [e for e in trace.events if isinstance(e, Task) and e.kind == "kernel"]


def _share(a: View, b: View) -> bool:
    return a.buffer == b.buffer and bool({f for _, f in positions(a)} & {f for _, f in positions(b)})
