"""Task traces: what an orchestration program asks of the runtime, in order.

A ``Trace`` is produced three ways (the reference interpreter, the emission interpreter, the
compiled C++ linked with the recording runtime) and is the input of the runtime model and the
hazard checker. It lists the buffers the program touches and the runtime calls it makes, in
program order:

- ``ScopeBegin`` / ``ScopeEnd``: a runtime scope (the executor's outer AUTO scope included);
- ``Alloc``: one ``alloc_tensors`` call (a hidden, already-completed task) and the buffers it made;
- ``Task``: a kernel or dummy submit: launch, tensor arguments (a ``View`` of a buffer, the
  runtime tag, ``manual_dep``, the creator task), scalar arguments as the runtime's uint64 slots,
  explicit dependencies (ids of earlier tasks), the scope mode, the buffers its OUTPUT slots made;
- ``HostRead`` / ``HostWrite``: ``get_tensor_data`` / ``set_tensor_data`` of one element;
- ``Copy``: a ``pl.assemble`` run as written (a copy; only the program as written has one);
- ``Fatal``: the runtime went fatal (every later call is a no-op).

Task ids count allocs, tasks and dummies together from 0, as the runtime hands out TaskIds.
Views are the runtime's: start offset, shapes and strides in elements. ``region`` turns a view
into a box of its buffer's index space (exact for slices, and for transposes and reshapes
whose elements form a box); any other view is taken conservatively as the whole buffer.

Traces from different producers allocate in different orders (the compiler batches creates),
so they are compared after canonicalisation (``canonical``): entry buffers are named by entry
slot, every other buffer by order of first use, tasks are numbered among tasks only, and allocs,
scopes and source positions are left out.
"""

from __future__ import annotations

import functools

import json
from dataclasses import dataclass, field
from typing import Any, Iterable

TAGS = ("INPUT", "OUTPUT", "INOUT", "OUTPUT_EXISTING", "NO_DEP")
READ_TAGS = frozenset({"INPUT", "INOUT", "NO_DEP"})
WRITE_TAGS = frozenset({"OUTPUT", "INOUT", "OUTPUT_EXISTING"})
NO_KERNEL = -1


# -- buffers, views, regions -----------------------------------------------------------------------


@dataclass(frozen=True)
class Buffer:
    """One allocation: an entry tensor (``slot``), an ``alloc_tensors`` buffer or a task's OUTPUT.

    ``init`` is the fill value's bits (None: no fill); ``label`` is a human name (the variable,
    when the producer knows it).
    """

    name: str
    shape: tuple[int, ...]
    dtype: str
    origin: str  # "entry" | "alloc" | "output"
    slot: int | None = None
    manual_dep: bool = False
    init: int | None = None
    label: str = ""


@dataclass(frozen=True)
class View:
    """A tensor as the runtime holds it (Tensor's buffer, start_offset, shapes, strides)."""

    buffer: str
    offset: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]


@dataclass(frozen=True)
class Box:
    """A region of a buffer: ``offsets`` + ``shape`` per dimension of the buffer.

    ``exact`` is False for a region of a view that is not a box: ``offsets`` + ``shape`` are then
    the whole buffer, and ``elems`` (when the view has at most ``ELEMS_CAP`` elements, all inside
    the buffer) its elements exactly, as index tuples of the buffer; ``overlaps`` and ``covers``
    compare by elements where a region has them (runtime-api.md section 11: regions are compared
    using start_offset, shapes and strides, and disjoint views do not depend on each other; the
    weakest reading is elementwise), else by the conservative whole buffer.
    """

    offsets: tuple[int, ...]
    shape: tuple[int, ...]
    exact: bool = True
    elems: frozenset | None = None

    def __str__(self) -> str:
        dims = ", ".join(f"{o}:{o + s}" for o, s in zip(self.offsets, self.shape))
        return f"[{dims}]" + ("" if self.exact else " (whole buffer, conservative)")


def site_ids(tree) -> dict[int, str]:
    """id(statement) -> its submit site's name, for every ``Task`` / ``Dummy`` / ``HostFence`` of a
    Program (or ``Submit`` / ``GuardedDummy`` of an emission Unit): ``t<n>`` (``b<n>`` for a barrier
    or host fence), ``n`` counting the tasks (or the barriers) in program order, as
    ``printer/dot.py`` names the static graph's nodes."""
    out: dict[int, str] = {}
    counts = {"t": 0, "b": 0}  # tasks and barriers are counted apart
    stack = list(reversed(tree.body if tree._production == "Unit" else tree.orch.body))
    while stack:
        stmt = stack.pop()
        kind = stmt._production
        if kind in _SITES:
            barrier = kind in ("Dummy", "GuardedDummy", "HostFence") or (
                kind == "Submit" and stmt.launch._production == "DummyLaunch"
            )
            prefix = "b" if barrier else "t"
            out[id(stmt)] = f"{prefix}{counts[prefix]}"
            counts[prefix] += 1
        for name in ("orelse", "then", "body"):  # pushed in reverse: body / then first
            stack.extend(reversed(getattr(stmt, name, ())))
    return out


_SITES = frozenset({"Task", "Dummy", "HostFence", "Submit", "GuardedDummy"})


def row_major_strides(shape: Iterable[int]) -> tuple[int, ...]:
    shape = tuple(shape)
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return tuple(strides)


def whole(shape: tuple[int, ...], exact: bool = True) -> Box:
    return Box(tuple(0 for _ in shape), tuple(shape), exact)


ELEMS_CAP = 1 << 14


def _not_a_box(view: View, base: tuple[int, ...]) -> Box:
    """The whole buffer, with the view's elements when there are few enough and all in the buffer."""
    count = 1
    for extent in view.shape:
        count *= extent
    if count > ELEMS_CAP:
        return whole(base, exact=False)
    flats = [view.offset]
    for stride, extent in zip(view.strides, view.shape):
        flats = [f + i * stride for f in flats for i in range(extent)]
    points = [_unravel(f, base) for f in flats]
    if any(p is None for p in points):
        return whole(base, exact=False)
    return Box(tuple(0 for _ in base), tuple(base), False, frozenset(tuple(p) for p in points))


@functools.lru_cache(maxsize=1 << 16)  # a pure function of hashable values, asked again for every task
def region(view: View, base: tuple[int, ...]) -> Box:
    """The box of ``base`` (the buffer's shape) whose elements are exactly the view's.

    A slice keeps the buffer's strides; a transpose permutes them; a reshape of a contiguous
    run restrides it: each is a box when its elements are one. A view whose elements form no
    box of the buffer is taken as the whole buffer (``exact`` False: conservative).
    """
    if any(extent == 0 for extent in view.shape):
        return _not_a_box(view, base)
    strides = row_major_strides(base)
    origin = _unravel(view.offset, base)
    if origin is None:
        return _not_a_box(view, base)
    shape = [1] * len(base)
    for stride, extent in _runs(zip(view.strides, view.shape)):
        if stride not in strides:
            return _not_a_box(view, base)
        d = strides.index(stride)
        while True:
            if d < 0 or shape[d] != 1:
                return _not_a_box(view, base)
            if extent <= base[d] - origin[d]:
                shape[d] = extent
                break
            if origin[d] != 0 or extent % base[d]:
                return _not_a_box(view, base)
            shape[d] = base[d]
            extent //= base[d]
            d -= 1
    if _runs(zip(strides, shape)) != _runs(zip(view.strides, view.shape)):
        return _not_a_box(view, base)
    return Box(tuple(origin), tuple(shape))


def _runs(pairs) -> tuple[tuple[int, int], ...]:
    """A strided element set as maximal contiguous (stride, extent) runs, innermost first."""
    runs: list[tuple[int, int]] = []
    for stride, extent in sorted((s, e) for s, e in pairs if e > 1):
        if runs and stride == runs[-1][0] * runs[-1][1]:
            runs[-1] = (runs[-1][0], runs[-1][1] * extent)
        else:
            runs.append((stride, extent))
    return tuple(runs)


def _unravel(flat: int, base: tuple[int, ...]) -> list[int] | None:
    out = []
    for stride in row_major_strides(base):
        out.append(flat // stride)
        flat %= stride
    return out if all(0 <= o < b for o, b in zip(out, base)) else None


def element_box(view: View, index: tuple[int, ...], base: tuple[int, ...]) -> Box:
    """The one-element box ``view[index]`` touches (exact for every view)."""
    flat = view.offset + sum(i * s for i, s in zip(index, view.strides))
    origin = _unravel(flat, base)
    if origin is None:
        return whole(base, exact=False)
    return Box(tuple(origin), tuple(1 for _ in base))


def _inside(point: tuple[int, ...], box: Box) -> bool:
    return all(o <= p < o + n for p, o, n in zip(point, box.offsets, box.shape))


def _points(box: Box):
    points = [()]
    for o, n in zip(box.offsets, box.shape):
        points = [p + (i,) for p in points for i in range(o, o + n)]
    return points


def overlaps(a: Box, b: Box) -> bool:
    if a.elems is not None and b.elems is not None:
        return not a.elems.isdisjoint(b.elems)
    if a.elems is not None or b.elems is not None:
        some, box = (a, b) if a.elems is not None else (b, a)
        return any(_inside(p, box) for p in some.elems)
    return all(ao < bo + bs and bo < ao + as_ for ao, as_, bo, bs in zip(a.offsets, a.shape, b.offsets, b.shape))


def covers(outer: Box, inner: Box) -> bool:
    """Every element of ``inner`` is in ``outer`` (a conservative box without its elements covers
    nothing for sure)."""
    if outer.elems is not None:
        if inner.elems is not None:
            return inner.elems <= outer.elems
        size = 1
        for n in inner.shape:
            size *= n
        return inner.exact and size <= len(outer.elems) and all(p in outer.elems for p in _points(inner))
    if not outer.exact:
        return False
    if inner.elems is not None:
        return all(_inside(p, outer) for p in inner.elems)
    return all(
        oo <= io and io + is_ <= oo + os_
        for oo, os_, io, is_ in zip(outer.offsets, outer.shape, inner.offsets, inner.shape)
    )


# -- events ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TensorArg:
    view: View
    tag: str
    manual_dep: bool = False
    owner: int | None = None  # the creator task's id (owner_task_id), None when invalid


@dataclass(frozen=True)
class ScopeBegin:
    mode: str  # "auto" | "manual"
    line: int | None = None


@dataclass(frozen=True)
class ScopeEnd:
    pass


@dataclass(frozen=True)
class Alloc:
    id: int
    outputs: tuple[str, ...]
    line: int | None = None


@dataclass(frozen=True)
class Task:
    """A submit. ``launch`` is (aic, aiv0, aiv1) kernel ids, None for a dummy task.

    ``outputs`` are the buffers made for the OUTPUT tensor slots, in slot order. ``par`` lists,
    for each enclosing ``pl.parallel`` loop (outermost first), the loop instance and the
    iteration; ``derived`` the dependencies that only compiler-derived edges ask for (both
    reference interpreter only; other producers leave them empty). ``site`` names the submit
    site as the static task graph of the interpreted stage does (``t3``, ``b4``; interpreters
    only).
    """

    id: int
    kind: str  # "kernel" | "dummy"
    launch: tuple[int, int, int] | None
    tensors: tuple[TensorArg, ...]
    scalars: tuple[int, ...]
    deps: tuple[int, ...]
    mode: str
    outputs: tuple[str, ...] = ()
    kernel: str | None = None
    line: int | None = None
    par: tuple[tuple[int, int], ...] = ()
    derived: tuple[int, ...] = ()
    site: str = ""


@dataclass(frozen=True)
class HostRead:
    view: View
    index: tuple[int, ...]
    value: int  # the element's bits
    manual_dep: bool = False
    owner: int | None = None
    line: int | None = None
    par: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class HostWrite:
    view: View
    index: tuple[int, ...]
    value: int
    manual_dep: bool = False
    owner: int | None = None
    line: int | None = None
    par: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Copy:
    """``pl.assemble`` as written: the source view's elements copied into the target view (same
    shape). Only the program as written has copies (the runtime cannot copy); see ``values``."""

    source: View
    target: View
    line: int | None = None


@dataclass(frozen=True)
class Fatal:
    message: str


Event = ScopeBegin | ScopeEnd | Alloc | Task | HostRead | HostWrite | Copy | Fatal


@dataclass
class Trace:
    """Buffers (by name, in creation order) and events in program order. ``returned``: the name
    and view of every tensor the function's ``return`` gives back (the reference interpreter
    records it; a trace of the generated C++ has none). The JSON form keeps it under
    ``"returned"`` when there is any."""

    buffers: dict[str, Buffer] = field(default_factory=dict)
    events: list[Any] = field(default_factory=list)
    returned: tuple[tuple[str, View], ...] = ()

    def tasks(self) -> list[Task]:
        return [e for e in self.events if isinstance(e, Task)]

    def fatal(self) -> Fatal | None:
        return next((e for e in self.events if isinstance(e, Fatal)), None)

    def base(self, buffer: str) -> tuple[int, ...]:
        return self.buffers[buffer].shape

    # -- JSON ----------------------------------------------------------------------------------------

    def to_json(self) -> str:
        data = {"buffers": [_buffer_json(b) for b in self.buffers.values()], "events": [_event_json(e) for e in self.events]}
        if self.returned:
            data["returned"] = [{"name": name, **_view_json(view)} for name, view in self.returned]
        return json.dumps(data, indent=None, separators=(",", ":"))

    @staticmethod
    def from_json(text: str) -> "Trace":
        data = json.loads(text)
        trace = Trace()
        for b in data["buffers"]:
            buf = Buffer(
                b["name"], tuple(b["shape"]), b["dtype"], b["origin"], b.get("slot"), bool(b.get("manual_dep")),
                b.get("init"), b.get("label", ""),
            )
            trace.buffers[buf.name] = buf
        trace.events = [_event_from_json(e) for e in data["events"]]
        trace.returned = tuple((r["name"], _view_from(r)) for r in data.get("returned", ()))
        return trace


def _view_json(v: View) -> dict:
    return {"buffer": v.buffer, "offset": v.offset, "shape": list(v.shape), "strides": list(v.strides)}


def _view_from(d: dict) -> View:
    return View(d["buffer"], d["offset"], tuple(d["shape"]), tuple(d["strides"]))


def _buffer_json(b: Buffer) -> dict:
    return {
        "name": b.name, "shape": list(b.shape), "dtype": b.dtype, "origin": b.origin, "slot": b.slot,
        "manual_dep": b.manual_dep, "init": b.init, "label": b.label,
    }


def _event_json(e) -> dict:
    if isinstance(e, ScopeBegin):
        return {"op": "scope_begin", "mode": e.mode, "line": e.line}
    if isinstance(e, ScopeEnd):
        return {"op": "scope_end"}
    if isinstance(e, Alloc):
        return {"op": "alloc", "id": e.id, "outputs": list(e.outputs), "line": e.line}
    if isinstance(e, Task):
        return {
            "op": "task", "id": e.id, "kind": e.kind, "launch": list(e.launch) if e.launch else None,
            "tensors": [
                {**_view_json(t.view), "tag": t.tag, "manual_dep": t.manual_dep, "owner": t.owner} for t in e.tensors
            ],
            "scalars": list(e.scalars), "deps": list(e.deps), "mode": e.mode, "outputs": list(e.outputs),
            "kernel": e.kernel, "line": e.line, "par": [list(p) for p in e.par], "derived": list(e.derived),
            "site": e.site,
        }
    if isinstance(e, (HostRead, HostWrite)):
        return {
            "op": "get" if isinstance(e, HostRead) else "set", "tensor": _view_json(e.view), "index": list(e.index),
            "value": e.value, "manual_dep": e.manual_dep, "owner": e.owner, "line": e.line,
            "par": [list(p) for p in e.par],
        }
    if isinstance(e, Copy):
        return {"op": "copy", "source": _view_json(e.source), "target": _view_json(e.target), "line": e.line}
    if isinstance(e, Fatal):
        return {"op": "fatal", "message": e.message}
    raise TypeError(f"not a trace event: {e!r}")


def _event_from_json(d: dict):
    op = d["op"]
    if op == "scope_begin":
        return ScopeBegin(d["mode"], d.get("line"))
    if op == "scope_end":
        return ScopeEnd()
    if op == "alloc":
        return Alloc(d["id"], tuple(d["outputs"]), d.get("line"))
    if op == "task":
        tensors = tuple(
            TensorArg(_view_from(t), t["tag"], bool(t.get("manual_dep")), t.get("owner")) for t in d["tensors"]
        )
        launch = tuple(d["launch"]) if d.get("launch") is not None else None
        return Task(
            d["id"], d["kind"], launch, tensors, tuple(d["scalars"]), tuple(d["deps"]), d["mode"],
            tuple(d.get("outputs", ())), d.get("kernel"), d.get("line"), tuple(tuple(p) for p in d.get("par", ())),
            tuple(d.get("derived", ())), d.get("site", ""),
        )
    if op in ("get", "set"):
        cls = HostRead if op == "get" else HostWrite
        return cls(
            _view_from(d["tensor"]), tuple(d["index"]), d["value"], bool(d.get("manual_dep")), d.get("owner"),
            d.get("line"), tuple(tuple(p) for p in d.get("par", ())),
        )
    if op == "copy":
        return Copy(_view_from(d["source"]), _view_from(d["target"]), d.get("line"))
    if op == "fatal":
        return Fatal(d["message"])
    raise ValueError(f"unknown trace event op {op!r}")


# -- canonical form and comparison -------------------------------------------------------------------


@dataclass(frozen=True)
class Canonical:
    """A trace with producer-specific identity removed (see the module docstring)."""

    buffers: tuple[tuple, ...]  # (canonical name, shape, dtype, origin, manual_dep, init) by first use
    events: tuple[tuple, ...]  # one tuple per task / host access / fatal
    labels: tuple[str, ...]  # a readable line per event, for diffs


def canonical(
    trace: Trace, launches: dict[str, tuple[int, int, int]] | None = None, scopes: bool = False, ordering: bool = True
) -> Canonical:
    """``launches`` maps kernel names to launch triples for traces that name kernels but have no
    launch (the reference interpreter before kernel ids exist). With ``scopes``, scope begins and
    ends are kept (for traces of the same C++ program). Without ``ordering``, what only orders
    tasks is left out: dummy barriers, explicit dependencies, scope modes, and host element
    reads (which change nothing but when the host waits; a dead one may be removed)."""
    names: dict[str, str] = {}
    for buf in trace.buffers.values():
        if buf.origin == "entry":
            names[buf.name] = f"in{buf.slot}"
    counter = 0

    def name(buffer: str) -> str:
        nonlocal counter
        if buffer not in names:
            names[buffer] = f"t{counter}"
            counter += 1
        return names[buffer]

    task_index: dict[int, str] = {}
    alloc_buffers: dict[int, tuple[str, ...]] = {}
    events: list[tuple] = []
    labels: list[str] = []
    ntasks = 0
    for event in trace.events:
        if isinstance(event, Alloc):
            alloc_buffers[event.id] = event.outputs
            continue
        if isinstance(event, (ScopeBegin, ScopeEnd)):
            if scopes:
                key = ("scope_begin", event.mode) if isinstance(event, ScopeBegin) else ("scope_end",)
                events.append(key)
                labels.append(" ".join(key))
            continue
        if isinstance(event, Task):
            if not ordering and event.kind == "dummy":
                continue
            task_index[event.id] = f"task{ntasks}"
            launch = event.launch
            if launch is None and event.kind == "kernel" and launches is not None and event.kernel in launches:
                launch = launches[event.kernel]
            tensors = []
            for arg in event.tensors:
                box = region(arg.view, trace.base(arg.view.buffer))
                tensors.append((name(arg.view.buffer), box.offsets, box.shape, box.exact, arg.tag, arg.manual_dep,
                                _owner(arg.owner, task_index, alloc_buffers, name)))
            outputs = tuple(name(b) for b in event.outputs)
            deps = tuple(sorted({_owner(d, task_index, alloc_buffers, name) for d in event.deps}, key=str))
            key = ("task", event.kind, launch, event.mode, tuple(tensors), outputs, event.scalars, deps)
            if not ordering:
                key = ("task", event.kind, launch, tuple(tensors), outputs, event.scalars)
            events.append(key)
            labels.append(_label_task(ntasks, event, tensors, outputs, deps, launch))
            ntasks += 1
            continue
        if isinstance(event, (HostRead, HostWrite)):
            if not ordering and isinstance(event, HostRead):
                continue
            box = element_box(event.view, event.index, trace.base(event.view.buffer))
            kind = "get" if isinstance(event, HostRead) else "set"
            key = (kind, name(event.view.buffer), box.offsets, event.value)
            events.append(key)
            labels.append(f"{kind} {name(event.view.buffer)}{list(box.offsets)} = {event.value}")
            continue
        if isinstance(event, Copy):
            source = region(event.source, trace.base(event.source.buffer))
            target = region(event.target, trace.base(event.target.buffer))
            key = ("copy", name(event.source.buffer), source.offsets, name(event.target.buffer), target.offsets)
            events.append(key)
            labels.append(f"copy {key[1]}{list(key[2])} -> {key[3]}{list(key[4])}")
            continue
        if isinstance(event, Fatal):
            events.append(("fatal", event.message))
            labels.append(f"fatal: {event.message}")
    buffers = []
    for buf in trace.buffers.values():
        if buf.name in names:
            buffers.append((names[buf.name], buf.shape, buf.dtype, buf.origin, buf.manual_dep, buf.init))
    buffers.sort(key=lambda b: (b[0][:2] != "in", int(b[0][2:]) if b[0].startswith("in") else int(b[0][1:])))
    return Canonical(tuple(buffers), tuple(events), tuple(labels))


def _owner(task_id: int | None, task_index: dict, alloc_buffers: dict, name) -> str | None:
    if task_id is None:
        return None
    if task_id in task_index:
        return task_index[task_id]
    if task_id in alloc_buffers:
        return "alloc"  # every alloc completes inline: which batch made a buffer does not matter
    return f"unknown#{task_id}"


def _label_task(n: int, task: Task, tensors, outputs, deps, launch) -> str:
    what = task.kernel or (f"launch{list(launch)}" if launch else task.kind)
    args = ", ".join(f"{t[4]} {t[0]}{_dims(t[1], t[2])}" + (" manual_dep" if t[5] else "") for t in tensors)
    extra = f" outputs={list(outputs)}" if outputs else ""
    return f"task{n} {what} [{task.mode}] ({args}) scalars={list(task.scalars)} deps={list(deps)}{extra}"


def _dims(offsets, shape) -> str:
    return "[" + ", ".join(f"{o}:{o + s}" for o, s in zip(offsets, shape)) + "]"


def compare(
    a: Trace, b: Trace, names: tuple[str, str] = ("a", "b"), launches=None, scopes: bool = False, ordering: bool = True
) -> str | None:
    """None when the traces agree after canonicalisation, else a description of the first difference."""
    ca, cb = canonical(a, launches, scopes, ordering), canonical(b, launches, scopes, ordering)
    na, nb = names
    for i, (ea, eb) in enumerate(zip(ca.events, cb.events)):
        if ea != eb:
            return f"event {i} differs:\n  {na}: {ca.labels[i]}\n  {nb}: {cb.labels[i]}"
    if len(ca.events) != len(cb.events):
        longer, which = (ca, na) if len(ca.events) > len(cb.events) else (cb, nb)
        extra = longer.labels[min(len(ca.events), len(cb.events))]
        return f"{na} has {len(ca.events)} events, {nb} has {len(cb.events)}; first extra ({which}): {extra}"
    if ca.buffers != cb.buffers:
        diff = [f"  {na}: {x}\n  {nb}: {y}" for x, y in zip(ca.buffers, cb.buffers) if x != y]
        return "buffers differ:\n" + ("\n".join(diff) if diff else f"  {na}: {ca.buffers}\n  {nb}: {cb.buffers}")
    return None
