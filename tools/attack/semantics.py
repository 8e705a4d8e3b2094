"""The sequential meaning of an abstract program (program.py), element by element.

For given scalar values the program runs in program order: the result is the list of task
instances and host element accesses, each with the elements it reads and writes, and for every
read the write it observes. Tensors are views of buffers (reference semantics: a kernel writes its
Out/InOut arguments' elements in place); `pl.assemble` copies its source's elements into the
target (copy semantics: the target's elements take the source's provenance at that moment).

Provenance stamps: ("ev", i) the write of event i; ("ext", param, flat) a parameter's initial
element; ("fill", bits) a create_tensor init_value (float32 bits); UNDEF memory never written.

Some valid programs have no correct compilation on the runtime (runtime-api section 11): the
result lists them (`SeqResult.unorderable`, each a `Reason` of kind PLACEMENT), so that a refusal
of such a program that names that reason is the right answer, not a failure:

- a `pl.assemble` the runtime cannot perform as a view of its target: the runtime has no tensor
  copy (runtime-api.md), so the source must be placed in the target's rows from its creation on
  (one memory: a write of either is a write of both), which is visible when an access between
  the source's creation and the assemble touches those rows (directly, or through another
  source an earlier assemble placed in them), or when the source's fill
  (init_value) is read or still there at the assemble (a view is never filled);
- for the same reason, an access after the assemble at which the source and the target's rows
  may differ: placed, a read of an element of either (a task's `In`/`InOut` argument, a host
  read, the parameter's final value) observes the last write of the two, as written it
  observes its own last write; they differ when a write of one of them comes between the
  assemble and the read: a write of the target's rows that a later read of the source must not
  see, or a write of the source that a later read of the target's rows must not see (the copy
  was taken before it). Reads that no such write precedes, and writes nothing reads afterwards
  (dead), are placeable and not listed (`_Placement`);
- one source assembled into two different regions (targets or rows) when the assembled values
  of both regions are then used (read, or a parameter's final value, before a write replaces
  them): the source can be placed in one region only, and nothing can copy it into the other;
  and a parameter assembled into a region whose assembled values are used: the caller made its
  buffer, which is no view of the target;
- a task after the assemble that reads an element of the source or of the target's rows through
  one argument and writes its placed counterpart through another (issue 21 class 5): placed, the
  kernel reads and writes the same bytes through two arguments (`_Placement.aliased`).

A `pl.create_tensor(..., init_value=...)` in a nest of loops of a `with` block, used after the
block and written in it, has a correct compilation when the loops' trip counts are known before
the block (one buffer of a filled row block per run, their number counted before the block), as
every `pl.range` / `pl.parallel` trip count of these grammars is (a constant or a scalar
parameter): no rule here (one counted the compiler's refusal of such a nest as right until it
made those blocks).

A host read whose value nothing uses (`HostRead.live` false) observes nothing: it is no access,
and the compiler drops it (remove_dead_values), so the recorded run has no read for it either.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Optional

from . import program as P

UNDEF = ("undef",)
PLACEMENT = "assemble placement"    # the kind of every rule above: an assemble the runtime cannot copy


class Reason(str):
    """Why a program has no correct compilation (the text), the kind of that reason, and what it
    is about: the lines of the assembles involved (`lines`) and the names the program gives the
    tensors they assemble (`names`: every name bound to a source's or a target's buffer while the
    program ran; `run` fills them in from `bufs`). A compiler's refusal must name a reason of that
    kind, located at one of its lines and quoting only its names, to be the right answer
    (runner.Report.right_refusal)."""

    kind: str
    lines: frozenset
    bufs: frozenset
    names: frozenset

    def __new__(cls, kind: str, text: str, lines=(), bufs=(), names=()) -> "Reason":
        reason = super().__new__(cls, text)
        reason.kind = kind
        reason.lines = frozenset(line for line in lines if line)   # (0: a statement not rendered)
        reason.bufs = frozenset(bufs)
        reason.names = frozenset(names)
        return reason

    def __reduce__(self):
        return Reason, (self.kind, str(self), self.lines, self.bufs, self.names)


def f32_bits(v: float) -> int:
    return struct.unpack("<I", struct.pack("<f", v))[0]


@dataclass(frozen=True)
class View:
    buf: str
    off: int
    shape: tuple
    strides: tuple

    def elems(self) -> list:
        if len(self.shape) == 1:
            return [self.off + i * self.strides[0] for i in range(self.shape[0])]
        (d0, d1), (s0, s1) = self.shape, self.strides
        return [self.off + i * s0 + j * s1 for i in range(d0) for j in range(d1)]

    def at(self, idx) -> int:
        return self.off + sum(i * s for i, s in zip(idx, self.strides))


def full_view(buf: str, shape: tuple) -> View:
    strides = (shape[1], 1) if len(shape) == 2 else (1,)
    return View(buf, 0, tuple(shape), strides)


@dataclass
class Access:
    """One argument of an event: the elements of `buf` it touches, in the view's order."""

    pos: int
    buf: str
    elems: list
    read: bool
    write: bool
    nodep: bool = False
    manual_dep: bool = False


@dataclass
class Event:
    idx: int
    kind: str                  # "task", "hread" or "hwrite"
    kernel: Optional[str]
    line: int
    accesses: list
    parallel: tuple            # ((loop instance, iteration), ...) of the enclosing pl.parallel loops
    reads: dict = field(default_factory=dict)   # pos -> [stamp per element, view order]
    manual: Optional[int] = None   # the instance of the outermost manual scope it runs in

    def describe(self) -> str:
        what = f"task {self.kernel}" if self.kind == "task" else (
            "host read" if self.kind == "hread" else "host write")
        return f"{what} (line {self.line}, #{self.idx})"


def independent(e1: Event, e2: Event) -> bool:
    """Different iterations of one pl.parallel loop instance."""
    d1 = dict(e1.parallel)
    return any(inst in d1 and d1[inst] != it for inst, it in e2.parallel)


@dataclass
class SeqResult:
    events: list
    memory: dict               # (buf, flat) -> stamp at the end
    manual_dep_bufs: set
    buffers: dict              # buf -> shape
    unorderable: list = field(default_factory=list)   # why no compilation is correct (module doc)
    slot_names: tuple = ()     # the entry's tensor parameters by slot (program.tensor_slot_names)


class _Runner:
    def __init__(self, prog: P.Program, lines: dict, scalars: dict):
        self.prog = prog
        self.lines = lines
        self.scalars = dict(scalars)
        self.env: dict = {}
        self.mem: dict = {}
        self.events: list = []
        self.parallel: list = []
        self.loop_instances = 0
        self.nbufs = 0
        self.manual_dep_bufs: set = set()
        self.buffers: dict = {}
        self.manual: Optional[int] = None   # the outermost manual scope instance running
        self.manual_instances = 0
        self.creator: dict = {}             # buf -> event index of the task whose Out made it
        self.made_at: dict = {}             # buf -> number of events before its creation
        self.placement = _Placement()       # the memory an assemble's placement would share
        self.unorderable: list = []
        self.values: dict = {}              # (buf, flat) -> the value of its last host write
        self.names: dict = {}               # buf -> every name bound to a view of it so far
        for name, shape, _ in P.TENSOR_PARAMS:
            self._param(name, P.SHAPES[shape])
        self._param("sink", (P.SINK_SIZE,))
        if prog.surface:
            self._param("cnt", (P.COUNT_SIZE,))
        for name in prog.extra:
            self._param(name, P.SHAPES[prog.extra_shape(name)])

    def _param(self, name, shape):
        buf = f"ext:{name}"
        self.buffers[buf] = shape
        v = full_view(buf, shape)
        self.env[name] = v
        for e in v.elems():
            self.mem[(buf, e)] = ("ext", name, e)

    def fresh(self, prefix: str, shape: tuple) -> View:
        buf = f"{prefix}{self.nbufs}"
        self.nbufs += 1
        self.buffers[buf] = shape
        return full_view(buf, shape)

    def line(self, stmt) -> int:
        return self.lines.get(id(stmt), 0)

    def event(self, kind, kernel, stmt, accesses) -> Event:
        ev = Event(len(self.events), kind, kernel, self.line(stmt), accesses, tuple(self.parallel),
                   manual=self.manual)
        self.placement.see(ev, self.mem, self.unorderable)
        self.events.append(ev)
        return ev

    def perform(self, ev: Event, accesses) -> None:
        """The task ``ev`` runs: each read access records what it sees, then each write access
        makes its elements ``ev``'s."""
        for acc in accesses:
            if acc.read:
                ev.reads[acc.pos] = [self.mem.get((acc.buf, e), UNDEF) for e in acc.elems]
        for acc in accesses:
            if acc.write:
                for e in acc.elems:
                    self.mem[(acc.buf, e)] = ("ev", ev.idx)

    def access(self, pos, view: View, read, write, nodep=False) -> Access:
        return Access(pos, view.buf, view.elems(), read, write, nodep, view.buf in self.manual_dep_bufs)

    def run(self, body):
        for s in body:
            self.stmt(s)
            self.name_buffers()

    def cond(self, c) -> bool:
        lhs, op, rhs = c
        v = self.scalars[lhs]
        return {">": v > rhs, "==": v == rhs, "<": v < rhs, "!=": v != rhs, ">=": v >= rhs}[op]

    def stmt(self, s):
        if isinstance(s, P.Call):
            k = self.prog.kernel(s.kernel)
            views = []
            for i, (d, shape) in enumerate(k.params):
                a = s.args[i]
                views.append(self.fresh("o", P.SHAPES[shape]) if a is None else self.env[a])
            accs = [self.access(i, views[i], d != "out", d != "in", bool(s.nodep and s.nodep[i]))
                    for i, (d, _) in enumerate(k.params)]
            ev = self.event("task", k.name, s, accs)
            for i, a in enumerate(s.args[:len(k.params)]):
                if a is None:
                    self.creator[views[i].buf] = ev.idx
                    self.made_at[views[i].buf] = ev.idx
            self.perform(ev, accs)
            for name, pos in zip(s.results, k.results):
                self.env[name] = views[pos]
            if s.tid:
                self.env[s.tid] = "tid"
        elif isinstance(s, P.HostRead) and not s.live:
            pass                    # a dead read observes nothing: no access (the compiler drops it)
        elif isinstance(s, P.HostRead):
            v = self.env[s.tensor]
            flat = v.at(s.idx)
            ev = self.event("hread", None, s, [Access(0, v.buf, [flat], True, False, False,
                                                      v.buf in self.manual_dep_bufs)])
            ev.reads[0] = [self.mem.get((v.buf, flat), UNDEF)]
            sink = self.env["sink"]
            w = self.event("hwrite", None, s, [Access(0, sink.buf, [s.slot], False, True)])
            self.mem[(sink.buf, s.slot)] = ("ev", w.idx)
        elif isinstance(s, P.HostWrite):
            v = self.env[s.tensor]
            flat = v.at(s.idx)
            ev = self.event("hwrite", None, s, [Access(0, v.buf, [flat], False, True, False,
                                                       v.buf in self.manual_dep_bufs)])
            self.mem[(v.buf, flat)] = ("ev", ev.idx)
            self.values[(v.buf, flat)] = s.value
        elif isinstance(s, P.Create):
            v = self.fresh("c", P.SHAPES[s.shape])
            self.made_at[v.buf] = len(self.events)
            if s.manual_dep:
                self.manual_dep_bufs.add(v.buf)
            if s.init is not None:
                for e in v.elems():
                    self.mem[(v.buf, e)] = ("fill", f32_bits(s.init))
            self.env[s.name] = v
        elif isinstance(s, P.Slice):
            src = self.env[s.src]
            row = s.row if isinstance(s.row, int) else s.row[1] * self.scalars[s.row[0]]
            self.env[s.name] = View(src.buf, src.off + row * src.strides[0], (4, 4), src.strides)
        elif isinstance(s, P.Transpose):
            src = self.env[s.src]
            self.env[s.name] = View(src.buf, src.off, src.shape[::-1], src.strides[::-1])
        elif isinstance(s, P.Assemble):
            tgt, src = self.env[s.target], self.env[s.src]
            region = View(tgt.buf, tgt.off + s.row * tgt.strides[0], src.shape, tgt.strides)
            stamps = [self.mem.get((src.buf, e), UNDEF) for e in src.elems()]
            self.assemble_visible(s, src, region)
            for e, st in zip(region.elems(), stamps):
                if st is UNDEF:
                    self.mem.pop((tgt.buf, e), None)
                else:
                    self.mem[(tgt.buf, e)] = st
            self.env[s.target] = tgt
        elif isinstance(s, P.Alias):
            self.env[s.name] = self.env[s.src]
        elif isinstance(s, P.Swap):
            self.env[s.tmp] = self.env[s.p]
            self.env[s.p] = self.env[s.q]
            self.env[s.q] = self.env[s.tmp]
        elif isinstance(s, P.TidNone):
            self.env[s.tid] = None
        elif isinstance(s, P.Barrier):
            self.env[s.tid] = "tid"
        elif isinstance(s, P.Loop):
            trip = s.trip if isinstance(s.trip, int) else self.scalars[s.trip]
            inst = self.loop_instances
            self.loop_instances += 1
            for inner, init in s.carries:
                self.env[inner] = self.env[init]
            for it in range(max(trip, 0)):
                self.scalars[s.var] = it
                if s.kind == "parallel":
                    self.parallel.append((inst, it))
                self.run(s.body)
                if s.kind == "parallel":
                    self.parallel.pop()
                if s.carries:
                    new = [self.env[y] for y in s.yields]
                    for (inner, _), v in zip(s.carries, new):
                        self.env[inner] = v
            for (inner, _), res in zip(s.carries, s.results):
                self.env[res] = self.env[inner]
        elif isinstance(s, P.If):
            self.run(s.then if self.cond(s.cond) else s.orelse)
        elif isinstance(s, P.Manual):
            outer = self.manual
            if outer is None:
                self.manual = self.manual_instances
                self.manual_instances += 1
            self.run(s.body)
            self.manual = outer
        elif isinstance(s, P.Auto):
            self.run(s.body)
        elif hasattr(s, "run"):
            s.run(self)
        else:
            raise TypeError(s)


    def assemble_visible(self, s, src: View, region: View) -> None:
        """Would placing `src` in `region` from its creation on change what some access sees?"""
        line = self.line(s)
        about = {"lines": (line,), "bufs": (src.buf, region.buf)}
        rows = set(region.elems())
        since = self.made_at.get(src.buf, 0)
        placed = self.placement.sharing(region.buf, rows)
        own = {src.buf} | self.placement.inner(src.buf)     # an access to a source placed in src is src's
        for e in self.events[since:]:
            if any(a.buf == region.buf and rows & set(a.elems)
                   or a.buf not in own and any((a.buf, x) in placed for x in a.elems) for a in e.accesses):
                self.unorderable.append(Reason(PLACEMENT, f"{e.describe()} touches the rows the assemble "
                                               f"(line {line}) fills, after its source was created", **about))
            for a in e.accesses:
                if a.buf == src.buf and a.read and any(st[0] == "fill" for st in e.reads.get(a.pos, ())):
                    self.unorderable.append(Reason(PLACEMENT, f"{e.describe()} reads the fill of the source of "
                                                   f"the assemble (line {line})", **about))
        if any(self.mem.get((src.buf, e), UNDEF)[0] == "fill" for e in src.elems()):
            self.unorderable.append(Reason(PLACEMENT, f"the assemble (line {line}) copies its source's fill",
                                           **about))
        self.placement.assemble(src, region, line, self.mem, self.unorderable)

    def name_buffers(self) -> None:
        """Note the names the environment binds to each buffer now (Reason.names)."""
        for name, v in self.env.items():
            if isinstance(v, View):
                self.names.setdefault(v.buf, set()).add(name)


class _Placement:
    """The memory the assembles' placements make (module doc): each element of a placed source is
    one memory with its element of the target's rows (union-find over (buf, flat); `value` holds
    each class's last write); a parameter source, or one assembled again into another region (it
    cannot be placed twice), is a copy there; `copied` tracks which assembled rows still hold
    their assemble's values, to tell whether such a copy's rows are used."""

    def __init__(self):
        self.parent: dict = {}      # (buf, flat) -> (buf, flat): the union-find of placed elements
        self.value: dict = {}       # class representative -> the stamp its memory holds, placed
        self.region: dict = {}      # source buf -> (target buf, elements) of its placement
        self.copied: dict = {}      # (buf, flat) -> (source buf, region, line) of the assemble it holds
        self.used: dict = {}        # source buf -> {region: line} whose assembled values were used
        self.named: set = set()     # the readers already listed as unorderable (one reason each)
        self.assembles: dict = {}   # class representative -> {(line, source buf, target buf)} placed in it
        self.param_lines: dict = {}  # (parameter buf, region) -> lines of every assemble of it into the region

    def find(self, x):
        while self.parent.get(x, x) != x:
            x = self.parent[x]
        return x

    def placed(self, x, mem):
        return self.value[self.find(x)] if x in self.parent else mem.get(x, UNDEF)

    def sharing(self, buf: str, rows: set) -> set:
        """The elements of other buffers that are ``rows`` of ``buf``: those of the sources placed
        there (a placed source is those rows from its creation on)."""
        classes = {self.find((buf, r)) for r in rows if (buf, r) in self.parent}
        return {x for x in self.parent if x[0] != buf and self.find(x) in classes} if classes else set()

    def inner(self, buf: str) -> set:
        """The buffers placed in ``buf``, and those placed in them (each is ``buf``'s memory)."""
        out, todo = set(), [buf]
        while todo:
            b = todo.pop()
            todo += [s for s, (tgt, _) in self.region.items() if tgt == b and s not in out]
            out |= {s for s, (tgt, _) in self.region.items() if tgt == b}
        return out

    def about(self, x, also=()) -> dict:
        """The lines and buffers of the assembles that made x's memory (and `also`'s): Reason's."""
        records = self.assembles.get(self.find(x), set()) | set(also)
        return {"lines": {line for line, _, _ in records},
                "bufs": {buf for _, src, tgt in records for buf in (src, tgt)}}

    def read(self, x, mem, what: str, unorderable: list, also=()) -> None:
        want = mem.get(x, UNDEF)
        if x in self.parent and want is not UNDEF and self.placed(x, mem) != want and what not in self.named:
            self.named.add(what)
            unorderable.append(Reason(PLACEMENT, f"{what} reads {x[0]}[{x[1]}], which the placement of an "
                                      "assemble's source shares with memory written since the assemble",
                                      **self.about(x, also)))
        if x in self.copied:
            src, region, line = self.copied[x]
            self.used.setdefault(src, {})[region] = line

    def write(self, x, stamp) -> None:
        if x in self.parent:
            self.value[self.find(x)] = stamp
        self.copied.pop(x, None)

    def see(self, ev, mem, unorderable: list) -> None:
        if ev.kind == "task":
            self.aliased(ev, unorderable)
        for acc in ev.accesses:
            if acc.read:
                for e in acc.elems:
                    self.read((acc.buf, e), mem, ev.describe(), unorderable)
        for acc in ev.accesses:
            if acc.write:
                for e in acc.elems:
                    self.write((acc.buf, e), ("ev", ev.idx))

    def aliased(self, ev, unorderable: list) -> None:
        """A task that reads an element through one argument and writes another element the
        placement made the same memory through another (the target's rows read and the source
        written, or the reverse): placed, the kernel reads and writes the same bytes through two
        arguments, which the program as written keeps apart."""
        read = {}
        for k, acc in enumerate(ev.accesses):
            if acc.read:
                for e in acc.elems:
                    if (acc.buf, e) in self.parent:
                        read.setdefault(self.find((acc.buf, e)), set()).add(((acc.buf, e), k))
        for k, acc in enumerate(ev.accesses):
            if acc.write:
                for e in acc.elems:
                    x = (acc.buf, e)
                    if x in self.parent and any(y != x and j != k for y, j in read.get(self.find(x), ())):
                        unorderable.append(Reason(PLACEMENT, f"{ev.describe()} reads and writes {x[0]}[{x[1]}] "
                                                  "through two arguments once an assemble's source is placed "
                                                  "in its target's rows", **self.about(x)))
                        return

    def assemble(self, src, region, line: int, mem, unorderable: list) -> None:
        record = (line, src.buf, region.buf)
        for e in src.elems():
            self.read((src.buf, e), mem, f"the assemble (line {line})", unorderable, (record,))
        cells = tuple(region.elems())
        key = (region.buf, cells)
        pairs = [((src.buf, s), (region.buf, r)) for s, r in zip(src.elems(), cells)]
        if not src.buf.startswith("ext:") and self.region.setdefault(src.buf, key) == key:
            for s, r in pairs:
                v = self.placed(s, mem)
                for x in (s, r):
                    if x not in self.parent:
                        self.parent[x] = x
                        self.value[x] = mem.get(x, UNDEF)
                rs, rr = self.find(s), self.find(r)
                if rs != rr:
                    self.parent[rr] = rs
                    self.assembles.setdefault(rs, set()).update(self.assembles.pop(rr, ()))
                self.value[rs] = v
                self.assembles.setdefault(rs, set()).add(record)
        else:                       # a parameter, or placed elsewhere already: a copy into these rows
            for s, r in pairs:
                self.write(r, self.placed(s, mem))
                if r in self.parent:
                    self.assembles.setdefault(self.find(r), set()).add(record)
        for _, r in pairs:
            self.copied[r] = (src.buf, key, line)
        if src.buf.startswith("ext:"):
            self.param_lines.setdefault((src.buf, key), set()).add(line)

    def finish(self, mem, unorderable: list) -> None:
        """The parameters' final values are reads; then no source may have two regions used."""
        for x in sorted(k for k in set(self.parent) | set(self.copied) if k[0].startswith("ext:")):
            self.read(x, mem, "the end of the program", unorderable)
        for src, regions in sorted(self.used.items()):
            lines = ", ".join(str(line) for line in sorted(set(regions.values())))
            about = {"lines": regions.values(), "bufs": {src} | {buf for buf, _ in regions}}
            if src.startswith("ext:"):
                # (every assemble of the parameter into a region whose values are used is a copy
                # no compilation makes, also one whose values a later one of them replaced)
                about["lines"] = set(regions.values()).union(*(self.param_lines.get((src, r), ()) for r in regions))
                unorderable.append(Reason(PLACEMENT, f"the source of the assemble of line(s) {lines} is the parameter {src[4:]}, "
                                   "whose assembled rows are used (a parameter cannot be placed in them)", **about))
            elif len(regions) > 1:
                unorderable.append(Reason(PLACEMENT, f"the source of the assembles of line(s) {lines} is used in two regions "
                                   "(it can be placed in one only)", **about))


def run(prog: P.Program, lines: dict, n: int, c: int) -> SeqResult:
    r = _Runner(prog, lines, {"n": n, "c": c})
    r.run(prog.body)
    if prog.return_call is not None:
        r.stmt(prog.return_call)
    r.placement.finish(r.mem, r.unorderable)
    r.unorderable = [Reason(why.kind, why, why.lines, why.bufs,
                            {name for buf in why.bufs for name in r.names.get(buf, ())})
                     for why in r.unorderable]
    return SeqResult(r.events, r.mem, r.manual_dep_bufs, r.buffers, r.unorderable,
                     tuple(P.tensor_slot_names(prog.surface, prog.extra)))
