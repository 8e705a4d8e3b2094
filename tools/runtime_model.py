"""The runtime model: the ordering PTO2 will enforce for a trace (runtime-api.md section 11).

``model(trace)`` replays the trace against a model of the runtime's dependency machinery and
returns, for every task, allocation and host element access (the *nodes*, by event index), the
edges the runtime will create and the transitive closure of those edges:

- explicit dependencies, in AUTO and MANUAL scopes alike;
- AUTO scope only, for every tensor slot but OUTPUT: an edge from the tensor's creator
  (``owner_task_id``); for INPUT and INOUT slots without ``manual_dep``, an edge from every
  TensorMap producer of the buffer whose region overlaps the slot's (an INOUT slot then retires
  the entries its region covers); afterwards INOUT and OUTPUT_EXISTING slots without
  ``manual_dep`` become TensorMap producers of their region. Readers are never recorded;
- ``get_tensor_data`` waits for the creator and the overlapping TensorMap producers,
  ``set_tensor_data`` also for those producers' consumers; both block the orchestration thread,
  so every later node comes after them. Through a ``manual_dep`` tensor (which "turns off lookup
  and insert for that tensor, which leaves creator-only tracking") an access waits for the
  creator alone (docs/decisions.md, "host access through a manual_dep tensor").

Retirement (section 11: a task's slot is freed once it is COMPLETED, all its consumers have
released it and its scope has ended; a retired producer is skipped): the model takes the weakest
reading, that a task may retire as soon as the runtime scope it was submitted in has ended (its
consumers so far may all be done by then). A lookup that misses a retired producer loses no
order, since that producer is complete, so the edges and the closure keep it; but a node
submitted after its predecessor's scope ended is not counted as a *consumer* of it, so a host
write through a producer waits only for the consumers submitted before that producer's scope
ended (a later reader may have found it retired: it is no consumer, and nothing orders it).
And since ``set_tensor_data`` waits for ``fanout_refcount >= fanout_count-1`` and the producer's
scope holds one of those references, a write after that scope ended (the reference released) may
leave any one consumer running: the model has it wait for the consumers of a producer only while
the producer's scope is open (docs/decisions.md, "set_tensor_data after the producer's scope").

Allocations complete when they are made. A node that uses a buffer after the runtime scope that
allocated it has ended gets a *warning* (the runtime may already have reclaimed the buffer); a
warning is not an error. Regions are ``trace.region`` boxes, compared by elements for a view
that is no box (docs/decisions.md, "regions of views that are no box").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .trace import Alloc, Box, HostRead, HostWrite, ScopeBegin, ScopeEnd, Task, Trace, covers, element_box, overlaps, region


@dataclass(frozen=True)
class Edge:
    src: int  # event index of the node waited for
    dst: int  # event index of the waiting node
    reason: str  # "explicit" | "creator" | "tensormap" | "host"


@dataclass
class Model:
    trace: Trace
    nodes: list[int] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    # node -> the nodes that finish before it starts, as (floor, rest): every event index below
    # ``floor``, and ``floor + j`` for every bit j of ``rest`` (``Reach``); ``floor`` is as high as
    # it can be (``_normalised``), so that a chain of n nodes costs O(n) bits, not O(n^2)
    closure: dict[int, tuple[int, int]] = field(default_factory=dict)
    # creator and TensorMap edges whose pair an explicit dependency also names (``edges`` records
    # such a pair once, as explicit): with ``edges``, every edge the runtime makes by itself
    shadowed: list[Edge] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    _node_bits: int | None = field(default=None, repr=False, compare=False)

    def ordered(self, first: int, second: int) -> bool:
        """Does node ``first`` finish before node ``second`` starts, whatever the schedule?"""
        floor, rest = self.closure[second]
        return first < floor and first in self.closure or first >= floor and bool(rest >> (first - floor) & 1)

    def reach_of(self, second: int) -> tuple[int, int]:
        """Node ``second``'s closure as (floor, rest): every node below ``floor`` finishes before it
        starts, and each node ``floor + j`` for a bit j of ``rest``."""
        return self.closure[second]

    def ordered_before(self, second: int) -> int:
        """The nodes that finish before node ``second`` starts, as a bitset of event indices."""
        floor, rest = self.closure[second]
        return ((1 << floor) - 1 | rest << floor) & self.node_bits()

    def node_bits(self) -> int:
        """Every node, as a bitset of event indices."""
        if self._node_bits is None:
            bits = bytearray((len(self.trace.events) + 8) // 8)
            for index in self.nodes:
                bits[index >> 3] |= 1 << (index & 7)
            self._node_bits = int.from_bytes(bits, "little")
        return self._node_bits

    @property
    def reach(self) -> "Reach":
        """Node -> ``ordered_before(node)``, made on each look-up."""
        return Reach(self)


class Reach(Mapping):
    """A model's closure as a mapping from node to the bitset of event indices ordered before it
    (``Model.ordered_before``); each look-up makes its bitset, none is kept."""

    def __init__(self, runtime: Model):
        self.runtime = runtime

    def __getitem__(self, node: int) -> int:
        return self.runtime.ordered_before(node)

    def __iter__(self):
        return iter(self.runtime.nodes)

    def __len__(self) -> int:
        return len(self.runtime.nodes)


def union(sets, singles, nodes_from) -> tuple[int, int]:
    """The union of ``sets`` ((floor, rest) pairs) and the event indices ``singles``, normalised
    (``normalised``) over the events from which on ``nodes_from`` says where the next node is."""
    floor = max((f for f, _ in sets), default=0)
    rest = 0
    for f, r in sets:
        rest |= r >> (floor - f)
    for single in singles:
        if single >= floor:
            rest |= 1 << (single - floor)
    return normalised(floor, rest, nodes_from)


def normalised(floor: int, rest: int, nodes_from) -> tuple[int, int]:
    """(floor, rest) raised past every event that is in ``rest`` or is no node: afterwards the
    event at ``floor`` is a node that is not in the set (or the trace has no node there).
    ``nodes_from[e]``: the first node at event index ``e`` or later (``len(nodes_from) - 1`` past
    the last)."""
    while True:
        skip = nodes_from[min(floor, len(nodes_from) - 1)] - floor
        if skip > 0:
            floor += skip
            rest >>= skip
        if not rest & 1:
            return floor, rest
        ones = (~rest & (rest + 1)).bit_length() - 1  # the run of set bits at the bottom
        floor += ones
        rest >>= ones


class ModelError(Exception):
    """The trace asks for something the runtime would reject (a dependency on an unknown task)."""


def model(trace: Trace) -> Model:
    return _Builder(trace).build()


@dataclass
class _Entry:
    producer: int
    box: Box


class _Entries:
    """The TensorMap entries of one buffer, in insertion order. Past ``SCAN`` entries they are also
    indexed by the rows (first dimension) they span, in ``BUCKETS`` runs of rows, so that a lookup
    tests only the entries of the rows it spans (a pipeline over thousands of tiles of one buffer)."""

    SCAN = 32
    BUCKETS = 256

    def __init__(self, base: tuple[int, ...]):
        self.entries: dict[int, _Entry] = {}
        self.serial = 0
        self.rows = base[0] if base else 1
        self.width = max(1, -(-self.rows // self.BUCKETS))
        self.buckets: dict[int, list[int]] | None = None
        self.filed = self.live = 0  # keys in the buckets; those of entries still in the map

    def add(self, entry: _Entry) -> None:
        self.entries[self.serial] = entry
        self.serial += 1
        if self.buckets is not None and self.filed > 2 * self.live + 1024:
            self.buckets = None  # mostly retired entries: index the live ones afresh
        if self.buckets is not None:
            self.file(self.serial - 1, entry.box)
        elif len(self.entries) > self.SCAN and self.rows > 1:
            self.buckets, self.filed, self.live = {}, 0, 0
            for key, old in self.entries.items():
                self.file(key, old.box)

    def span(self, box: Box) -> range:
        if not box.exact or not box.offsets:
            return range(0, -(-self.rows // self.width))
        return range(box.offsets[0] // self.width, (box.offsets[0] + box.shape[0] - 1) // self.width + 1)

    def file(self, key: int, box: Box) -> None:
        span = self.span(box)
        for bucket in span:
            self.buckets.setdefault(bucket, []).append(key)
        self.filed += len(span)
        self.live += len(span)

    def overlapping(self, box: Box) -> list[tuple[int, _Entry]]:
        """The entries whose region overlaps ``box``, in insertion order, with their keys."""
        if self.buckets is None:
            keys = self.entries
        else:
            keys = sorted({k for b in self.span(box) for k in self.buckets.get(b, ()) if k in self.entries})
        return [(k, self.entries[k]) for k in keys if overlaps(self.entries[k].box, box)]

    def retire(self, box: Box) -> None:
        """Remove the entries ``box`` covers (an INOUT access)."""
        for key, entry in self.overlapping(box):
            if covers(box, entry.box):
                del self.entries[key]
                if self.buckets is not None:
                    self.live -= len(self.span(entry.box))


class _Builder:
    def __init__(self, trace: Trace):
        self.trace = trace
        self.out = Model(trace)
        self.by_id: dict[int, int] = {}
        self.tensormap: dict[str, _Entries] = {}
        self.consumers: dict[int, set[int]] = {}  # node -> later nodes that are surely its consumers
        self.scopes: list[list[str]] = []
        self.submitted: list[list[int]] = []  # per open scope: the tasks submitted in it
        self.retirable: set[int] = set()  # tasks whose scope has ended: they may have retired
        self.dead: dict[str, int] = {}  # buffer -> event index of the scope end that released it
        self.host = (0, 0)  # nodes every later node comes after (host accesses and what they waited for)
        self.nodes_from = _nodes_from(trace.events)
        self.warned: set[tuple[str, int]] = set()

    def build(self) -> Model:
        for index, event in enumerate(self.trace.events):
            if isinstance(event, ScopeBegin):
                self.scopes.append([])
                self.submitted.append([])
            elif isinstance(event, ScopeEnd):
                for buffer in self.scopes.pop() if self.scopes else []:
                    self.dead[buffer] = index
                self.retirable.update(self.submitted.pop() if self.submitted else [])
            elif isinstance(event, Alloc):
                self.by_id[event.id] = index
                self.allocated(event.outputs)
                self.node(index, {})
            elif isinstance(event, Task):
                self.task(index, event)
            elif isinstance(event, (HostRead, HostWrite)):
                self.access(index, event)
        return self.out

    def allocated(self, buffers) -> None:
        if self.scopes:
            self.scopes[-1].extend(buffers)

    def node(self, index: int, preds: dict[int, str]) -> None:
        """Add node ``index`` waiting for ``preds`` (node -> reason)."""
        closure = self.out.closure
        for pred, reason in sorted(preds.items()):
            self.out.edges.append(Edge(pred, index, reason))
            if pred not in self.retirable:
                self.consumers.setdefault(pred, set()).add(index)
        self.out.nodes.append(index)
        closure[index] = union([self.host] + [closure[pred] for pred in preds], preds, self.nodes_from)

    def entries(self, buffer: str) -> _Entries:
        found = self.tensormap.get(buffer)
        if found is None:
            found = self.tensormap[buffer] = _Entries(self.trace.base(buffer))
        return found

    def creator(self, owner: int | None) -> int | None:
        return self.by_id.get(owner) if owner is not None else None

    def task(self, index: int, task: Task) -> None:
        explicit: dict[int, str] = {}
        for dep in task.deps:
            if dep not in self.by_id:
                raise ModelError(f"task {task.id} depends on {dep}, which is not an earlier task")
            explicit.setdefault(self.by_id[dep], "explicit")
        self.by_id[task.id] = index
        if self.submitted:
            self.submitted[-1].append(index)
        preds: dict[int, str] = {}  # the runtime's own edges
        inserts = []
        for arg in task.tensors:
            if arg.tag == "OUTPUT":
                continue
            self.check_alive(arg.view.buffer, index, task)
            if task.mode != "auto":
                continue
            creator = self.creator(arg.owner)
            if creator is not None:
                preds.setdefault(creator, "creator")
            box = region(arg.view, self.trace.base(arg.view.buffer))
            if arg.tag in ("INPUT", "INOUT") and not arg.manual_dep:
                entries = self.entries(arg.view.buffer)
                for _, entry in entries.overlapping(box):
                    preds.setdefault(entry.producer, "tensormap")
                if arg.tag == "INOUT":
                    entries.retire(box)
            if arg.tag in ("INOUT", "OUTPUT_EXISTING") and not arg.manual_dep:
                inserts.append((arg.view.buffer, box))
        preds.pop(index, None)
        self.out.shadowed.extend(Edge(pred, index, reason) for pred, reason in preds.items() if pred in explicit)
        self.node(index, {**preds, **explicit})
        for buffer, box in inserts:
            self.entries(buffer).add(_Entry(index, box))
        self.allocated(task.outputs)

    def access(self, index: int, event) -> None:
        buffer = event.view.buffer
        self.check_alive(buffer, index, event)
        box = element_box(event.view, event.index, self.trace.base(buffer))
        preds: dict[int, str] = {}
        creator = self.creator(event.owner)
        if creator is not None:
            preds[creator] = "host"
        # a manual_dep tensor "turns off lookup and insert": the access may wait for its creator only
        producers = [] if event.manual_dep else [e.producer for _, e in self.entries(buffer).overlapping(box)]
        for producer in producers:
            preds.setdefault(producer, "host")
        if isinstance(event, HostWrite):
            for producer in producers:
                if producer in self.retirable:
                    continue  # (its scope ended: the write may leave one consumer running, any one)
                for consumer in self.consumers.get(producer, ()):
                    preds.setdefault(consumer, "host")
        self.node(index, preds)
        self.host = union([self.host, self.out.closure[index]], [index], self.nodes_from)

    def check_alive(self, buffer: str, index: int, event) -> None:
        ended = self.dead.get(buffer)
        if ended is None or (buffer, index) in self.warned:
            return
        self.warned.add((buffer, index))
        label = self.trace.buffers[buffer].label
        what = f"task {getattr(event, 'kernel', None) or ''}".strip() if isinstance(event, Task) else "host access"
        line = f" (line {event.line})" if getattr(event, "line", None) else ""
        self.out.warnings.append(
            f"{what}{line} uses buffer {buffer}{f' ({label})' if label else ''} after the runtime scope that "
            f"allocated it ended (event {ended}): the runtime may already have reclaimed it"
        )


def _nodes_from(events) -> list[int]:
    """Event index -> the first event index at or after it that is a node (an allocation, a task,
    a host access), ``len(events)`` past the last; one more entry, for ``len(events)`` itself."""
    out = [len(events)] * (len(events) + 1)
    for index in range(len(events) - 1, -1, -1):
        out[index] = index if isinstance(events[index], (Alloc, Task, HostRead, HostWrite)) else out[index + 1]
    return out
