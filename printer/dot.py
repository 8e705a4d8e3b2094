"""The static task graph of a program at any stage: one node per submit site.

``static_graph(tree)`` reads a ``Program`` of any language before emission, or an emission
``Unit``, and returns a ``TaskGraph`` (``printer/graph.py`` says how it is drawn):

- one node per submit site (``Task`` / ``Dummy`` / ``HostFence``; in emission ``Submit`` /
  ``GuardedDummy``), labelled ``t<n>: <kernel>`` and its core where the stage knows it (``b<n>``
  for a barrier or host fence; tasks and barriers counted apart, so a barrier a pass adds renames
  no task), in program order;
- runtime scopes, loops and if branches as nested clusters;
- data edges from the tasks that may have written a buffer last to a task that reads it or
  rewrites it in place (``Input`` / ``InOut``, the accesses the runtime looks up), through views,
  aliases, loop carries, branch merges and (before ``fuse_create_assemble_to_slice``) the copy of
  an assemble; ``data-untracked`` when an end is in a MANUAL scope. A view's rows are known when
  its slice's offsets and extents are constants: a write replaces the last writers of the rows it
  surely covers and no others, a read looks at the writers of the rows it may overlap (a slice of
  other bounds, a clamped one or one of a transposed or reshaped view is some part of its buffer:
  it overlaps every write and replaces none). A name that may be one of several views (bound
  differently by an if's branches or a loop's iterations) reads the writers of each, and a write
  to it is one more possible last writer of each;
- a merge node ``m<k>`` after an if or a loop that may run no iteration, or after a write (or an
  assemble's copy) that may replace no writer (through a view of rows not known, to a name that
  may be several views), for a buffer that more than ``MERGED_WRITERS`` sites may have written
  last: edges from them to it, and from it to the readers after (the edges from every writer to
  every reader grow with the square of a chain of such statements);
- explicit edges from the submit sites whose TaskId a ``deps=`` entry may hold, by the TaskId's
  flow through copies, carries, array slots and branch merges (from ``tid-bound`` on, by its C++
  storage), styled by author, with guards and array sizes where the stage has resolved them.

Loop bodies are walked twice so that values carried around a back edge reach the top of the
body; the second walk adds edges but no nodes, and an edge from a site to itself or to an
earlier site is marked carried. The flow facts are sets of possible nodes, so the graph is a
static over-approximation: it shows every ordering the program may need, once per site.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import graphviz

from nanopass.languages.terms import ArgDir, LoopKind, ParamDir, ScopeMode
from nanopass.passes.kernels import written_param_of_result

from .graph import GraphEdge, GraphNode, TaskGraph

_LOOKUP = {ArgDir.Input, ArgDir.InOut}
_WRITE = {ArgDir.Output, ArgDir.OutputExisting, ArgDir.InOut}
_PARAM_ARG_DIR = {ParamDir.In: ArgDir.Input, ParamDir.Out: ArgDir.OutputExisting, ParamDir.InOut: ArgDir.InOut}
_NONE: frozenset = frozenset()
# A view's box, in its buffer's coordinates: None for the whole buffer, a tuple of (first, end) per
# dimension for constant bounds, ``_PART`` for a part not known before the run (bounds that are not
# constants, a clamped slice, a slice of a transposed or reshaped view), ``_WHOLE`` for the whole
# buffer in other coordinates (a transpose or reshape of it).
_PART = "part"
_WHOLE = "whole, other coordinates"


def _overlaps(a, b) -> bool:
    """Whether boxes ``a`` and ``b`` of one buffer may share an element."""
    if type(a) is not tuple or type(b) is not tuple or len(a) != len(b):
        return True
    return all(a0 < b1 and b0 < a1 for (a0, a1), (b0, b1) in zip(a, b))


def _covers(outer, inner) -> bool:
    """Whether box ``outer`` surely holds every element of box ``inner``."""
    if outer is None or outer is _WHOLE:
        return True
    if type(outer) is not tuple or type(inner) is not tuple or len(outer) != len(inner):
        return False
    return all(o0 <= i0 and i1 <= o1 for (o0, o1), (i0, i1) in zip(outer, inner))


def _slice_box(box, offsets, extents):
    """The box of a slice at ``offsets`` of ``extents`` (each an int, or None when not a
    constant) of a view whose box is ``box``."""
    if (box is not None and type(box) is not tuple) or None in offsets or None in extents or len(offsets) != len(extents):
        return _PART
    firsts = [0] * len(offsets) if box is None else [first for first, _ in box]
    if len(firsts) != len(offsets):
        return _PART
    return tuple((first + offset, first + offset + extent) for first, offset, extent in zip(firsts, offsets, extents))


def _reshaped_box(box):
    """The box of a transpose or reshape of a view whose box is ``box``."""
    return _WHOLE if box is None or box is _WHOLE else _PART


def _whole(name: str) -> frozenset:
    return frozenset(((name, None),))


def _shown(buffer: str) -> str:
    """A buffer's name as the program writes it (an allocation's without its ``@k``)."""
    return buffer.split("@", 1)[0]


def base_name(name: str) -> str:
    """The user's name of an SSA version or derived C++ name: ``x__rv_v3`` -> ``x``."""
    return name.split("__", 1)[0] or name


def task_graph(tree, name: str = "tasks") -> graphviz.Digraph:
    """The static task graph of ``tree`` as a graphviz ``Digraph``."""
    return static_graph(tree).to_digraph(name)


def to_dot(tree, name: str = "tasks") -> str:
    return task_graph(tree, name).source


def static_graph(tree) -> TaskGraph:
    walker = _EmissionWalker() if tree._production == "Unit" else _ProgramWalker(tree)
    walker.run(tree)
    return walker.graph


_MISSING = object()


class _Layer:
    """A map opened on another (``parent``): it reads through to it and keeps its own writes in
    ``own``, so that opening one for a branch or a loop body costs nothing where a copy cost the
    whole map (a program's flow holds every name it binds: copying it at every if and loop made
    the walk quadratic)."""

    __slots__ = ("own", "parent")

    def __init__(self, parent: "_Layer | None" = None, own: dict | None = None):
        self.own: dict = {} if own is None else own
        self.parent = parent

    def get(self, key, default=None):
        layer = self
        while layer is not None:
            value = layer.own.get(key, _MISSING)
            if value is not _MISSING:
                return value
            layer = layer.parent
        return default

    def __getitem__(self, key):
        value = self.get(key, _MISSING)
        if value is _MISSING:
            raise KeyError(key)
        return value

    def __setitem__(self, key, value) -> None:
        self.own[key] = value


@dataclass
class _Flow:
    """What may hold at one program point: maps opened on the flow of an enclosing point
    (``opened``), holding what changed since."""

    roots: _Layer  # tensor name -> the (buffer, box) views it may be (a frozenset; none: itself, whole)
    writers: _Layer  # buffer -> the (node, box) pairs: a node that may have written the box last
    tids: _Layer  # TaskId (storage) -> the nodes whose id it may hold
    wide: list[str] = field(default_factory=list)  # buffers the last join or weak write left with many writers

    def opened(self, merged: "tuple[dict, dict, dict] | None" = None) -> "_Flow":
        """A flow that starts as this one (with the entries of ``merged`` over it); writes to it
        leave this one as it is."""
        roots, writers, tids = merged or ({}, {}, {})
        return _Flow(_Layer(self.roots, roots), _Layer(self.writers, writers), _Layer(self.tids, tids))

    def absorb(self, changes: "tuple[dict, dict, dict]") -> None:
        """Write ``changes`` (each map's entries) into this flow."""
        self.roots.own.update(changes[0])
        self.writers.own.update(changes[1])
        self.tids.own.update(changes[2])

    def changes(self) -> tuple[dict, dict, dict]:
        """What was written to this flow since it was opened."""
        return self.roots.own, self.writers.own, self.tids.own


def _either(a: _Flow, b: _Flow, keys: tuple[list, list, list], wide: list | None = None) -> tuple[dict, dict, dict]:
    """The entries, for the keys ``keys`` of each map, of the flow where ``a`` or ``b`` may have
    happened (two flows that agree on every other key): each set (of buffers, of nodes) the union
    of both (a name one flow has not bound: the other's). ``wide`` gets the buffers whose union
    of writers has more than MERGED_WRITERS elements."""
    return _union(a.roots, b.roots, keys[0]), _union(a.writers, b.writers, keys[1], wide), _union(a.tids, b.tids, keys[2])


def _union(a: _Layer, b: _Layer, keys: list, wide: list | None = None) -> dict:
    """Key by key of ``keys``, ``a``'s and ``b``'s sets together (``a``'s as it is where ``b``'s
    is the same or ``b`` has none)."""
    out = {}
    for key in keys:
        va = a.get(key, _MISSING)
        vb = b.get(key, _MISSING)
        if vb is _MISSING or va == vb:
            out[key] = va
            continue
        merged = out[key] = vb if va is _MISSING else va | vb
        if wide is not None and len(merged) > MERGED_WRITERS:
            wide.append(key)
    return out


def _keys(*flows: _Flow) -> tuple[list, list, list]:
    """The keys of each map that any of ``flows`` wrote since it was opened, in order, once each."""
    return tuple(list(dict.fromkeys(key for own in owns for key in own)) for owns in zip(*(f.changes() for f in flows)))


EXACT_LOOP_DEPTH = 8
# A buffer that more submit sites than this may have written last, after an if or a loop that may
# run no iteration or after a write that may replace no writer, is drawn through a merge node: one
# edge from each writer to it and one from it to each later reader, where edges from every writer
# to every reader grew with the square of a chain of such statements (a thousand optional writers
# of one buffer drew 500,000 edges; 96 writes of slices at row n, each read after, 9,300).
MERGED_WRITERS = 8


class _Walker:
    """Sites, clusters and edges shared by the program and the emission walkers."""

    def __init__(self):
        self.graph = TaskGraph()
        self.flow = _Flow(_Layer(), _Layer(), _Layer())
        self.sites: dict[tuple, str] = {}
        self.site_paths: dict[str, tuple] = {}  # node -> the path of its submit site
        self.barriers = 0  # barrier sites so far
        self.order: dict[str, int] = {}
        self.in_manual: set[str] = set()
        self.cluster_ids: dict[tuple, str] = {}
        self.handlers: dict[str, Callable] = {}  # production -> handler(stmt, path, cluster, manual)
        self.loop_depth = 0  # loops around the statement being walked
        self.merges: dict[tuple, str] = {}  # (path of the if, loop, task or copy, buffer) -> its merge node
        self.allocations = 0  # buffers allocated so far (``allocation``)

    def allocation(self, name: str) -> str:
        """A buffer of its own for this visit of an allocation bound to ``name``: a name an
        allocation in a loop binds holds another buffer each iteration, and a name bound to it
        in the iteration before (a carry) still holds that one (``name@k``; ``_shown`` drops
        the ``@k``)."""
        self.allocations += 1
        return f"{name}@{self.allocations}"

    def roots_of(self, name: str) -> frozenset:
        """The (buffer, box) views ``name`` may be here (a name never bound: its own whole buffer)."""
        return self.flow.roots.get(name) or _whole(name)

    def write(self, views: frozenset, node: str) -> None:
        """``node`` writes a name that may be any of ``views``: of the one view the name is, it is
        the last writer, in place of the writers of the rows the view surely covers; of each of
        several, one more possible last writer. A write that may replace no writer (to one of
        several views, or through a view of rows not known) and leaves a buffer more than
        MERGED_WRITERS possible last writers puts the buffer in ``flow.wide``."""
        writers = self.flow.writers
        for root, box in views:
            earlier = writers.get(root, _NONE)
            if len(views) == 1:
                earlier = frozenset(w for w in earlier if not _covers(box, w[1]))
            now = writers[root] = earlier | {(node, None if box is _WHOLE else box)}
            if (len(views) > 1 or box is _PART) and len(now) > MERGED_WRITERS:
                self.flow.wide.append(root)

    def writers_of(self, root: str, box) -> list[str]:
        """The nodes that may have written an element of ``box`` of buffer ``root`` last, sorted."""
        return sorted({node for node, written in self.flow.writers.get(root, _NONE) if _overlaps(box, written)})

    def cluster(self, path: tuple, label: str, kind: str, parent: str | None) -> str:
        cid = self.cluster_ids.get(path)
        if cid is None:
            cid = self.cluster_ids[path] = self.graph.add_cluster(label, kind, parent)
        return cid

    def site(self, path: tuple, kernel: str, core: str | None, cluster: str | None, manual: bool, barrier: bool) -> str:
        """The node of the submit site at ``path`` (made on the first visit only)."""
        node = self.sites.get(path)
        if node is not None:
            return node
        number = len(self.sites)
        # tasks and barriers are counted apart, so that a barrier a pass adds renames no task
        node = f"b{self.barriers}" if barrier else f"t{number - self.barriers}"
        self.barriers += barrier
        self.sites[path] = node
        self.site_paths[node] = path
        self.order[node] = number
        if manual:
            self.in_manual.add(node)
        label = f"{node}: barrier" if barrier else f"{node}: {kernel}" + (f"\\n{core}" if core else "")
        self.graph.add_node(GraphNode(node, label, cluster, barrier=barrier, core=core, kernel="" if barrier else kernel))
        return node

    def data_edges(self, node: str, accesses: list[tuple[str, ArgDir]]) -> None:
        for name, direction in accesses:
            if direction not in _LOOKUP:
                continue
            for root, box in sorted(self.roots_of(name), key=str):
                for writer in self.writers_of(root, box):
                    untracked = writer in self.in_manual or node in self.in_manual
                    kind = "data-untracked" if untracked else "data"
                    how = "not tracked in a MANUAL scope" if untracked else "tracked by the runtime"
                    tip = f"{writer} may have written {_shown(root)} last; {node} accesses it as {direction.name} ({how})"
                    self.edge(writer, node, kind, base_name(_shown(root)), tip)
        for name, direction in accesses:
            if direction in _WRITE:
                self.write(self.roots_of(name), node)
        if self.flow.wide:
            self.merge_writers(self.site_paths[node], self.graph.nodes[node].cluster)

    def explicit_edges(self, node: str, sources, kind: str, label: str, guarded: bool, tooltip: str) -> None:
        for source in sorted(sources):
            self.edge(source, node, kind, label, tooltip, guarded=guarded)

    def edge(self, src: str, dst: str, kind: str, label: str, tooltip: str, guarded: bool = False) -> None:
        carried = self.order[src] >= self.order[dst]
        self.graph.add_edge(GraphEdge(src, dst, kind, label, guarded=guarded, carried=carried, tooltip=tooltip))

    def loop_twice(self, loop, walk_body: Callable[[], None], path: tuple, cluster: str | None) -> None:
        """Walk a loop body so that values carried around the back edge reach its top.

        Loops nested deeper than ``EXACT_LOOP_DEPTH`` are walked once (their back edges are not
        drawn): walking every level twice costs 2 ** depth walks of the innermost body.
        Afterwards the body may have run zero times, unless its trip count is a positive constant.
        """
        entry = self.flow
        self.flow = entry.opened()
        self.loop_depth += 1
        try:
            walk_body()
            if self.loop_depth <= EXACT_LOOP_DEPTH:
                first = self.flow
                self.flow = entry.opened(_either(entry, first, _keys(first)))
                walk_body()
        finally:
            self.loop_depth -= 1
        walked, self.flow = self.flow, entry
        if _runs_at_least_once(loop):
            entry.absorb(walked.changes())
        else:
            wide: list[str] = []
            entry.absorb(_either(entry, walked, _keys(walked), wide))
            entry.wide = sorted(wide)
            self.merge_writers(path, cluster)

    def branches(self, stmt, path: tuple, cluster: str | None, manual: bool) -> None:
        """Walk both branches of an if from the same entry; afterwards either may have run."""
        entry = self.flow
        outcomes = []
        for label, body in (("then", stmt.then), ("else", stmt.orelse)):
            self.flow = entry.opened()
            if body:
                inner = self.cluster(path + (label,), f"if {label}", "branch", cluster)
                self.body(body, path + (label,), inner, manual)
            outcomes.append(self.flow)
        wide: list[str] = []
        entry.absorb(_either(*outcomes, _keys(*outcomes), wide))
        entry.wide = sorted(wide)
        self.flow = entry
        self.merge_writers(path, cluster)

    def merge_writers(self, path: tuple, cluster: str | None) -> None:
        """After the statement at ``path`` (an if, a loop, a task or copy that may replace no
        writer): each buffer of ``flow.wide`` gets a merge node (``m<k>``, one per statement and
        buffer, the same on a loop body's second walk), placed after the sites so far, with a
        data edge from each of its possible last writers (but itself, reached around a back
        edge); the node is then the buffer's one last writer, so every later reader still
        reaches each of them (by a path of two edges)."""
        for root in sorted(set(self.flow.wide)):
            key = (path, _shown(root))
            node = self.merges.get(key)
            writers = sorted({writer for writer, _ in self.flow.writers[root]} - {node})
            if node is None:
                node = self.merges[key] = f"m{len(self.merges)}"
                self.order[node] = len(self.sites) - 0.5  # after the sites so far, before the next
                self.graph.add_node(GraphNode(node, f"{node}: {len(writers)} writers", cluster, merge=True,
                                              tooltip=f"one of these {len(writers)} submit sites may have written "
                                                      f"{base_name(_shown(root))} last"))
            for writer in writers:
                self.edge(writer, node, "data-untracked" if writer in self.in_manual else "data", base_name(_shown(root)),
                          f"{writer} may have written {_shown(root)} last (drawn through the merge node {node})")
            self.flow.writers[root] = frozenset(((node, None),))
        self.flow.wide = []

    def body(self, stmts, path: tuple, cluster: str | None, manual: bool) -> None:
        for i, stmt in enumerate(stmts):
            handler = self.handlers.get(stmt._production)
            if handler is not None:
                handler(stmt, path + (i,), cluster, manual)


class _ProgramWalker(_Walker):
    """Every language from ``surface`` to ``encoded``: a Program with kernels and a Function."""

    def __init__(self, program):
        super().__init__()
        self.kernels = {k.name: k for k in program.kernels}
        func = program.orch
        self.storage = {t.var: t.storage for t in getattr(func, "tids", ())}
        self.sizes = {t.storage: t.size for t in getattr(func, "tids", ()) if t.size}
        self.yield_to: list[Callable[[tuple], None]] = []
        self.handlers: dict[str, Callable] = {
            "Let": self.let, "Task": self.task, "Dummy": self.dummy, "Alloc": self.alloc,
            "Scope": self.scope, "For": self.loop, "While": self.loop, "If": self.branch, "Yield": self.yield_,
            # TaskId cells and scopes placed by passes that derive dependencies (``directed`` on)
            "CellDecl": self.cell_decl, "CellSet": self.cell_set, "CompilerScope": self.scope,
            "HostFence": self.host_fence,
        }

    def run(self, program) -> None:
        func = program.orch
        for param in func.params:
            self.flow.roots[param.name] = _whole(param.name)
        self.body(func.body, (), None, False)

    def key(self, name: str) -> str:
        """Where a TaskId lives: its C++ storage once the program is tid-bound, else its name."""
        return self.storage.get(name, name)

    def tids_of(self, expr) -> frozenset[str]:
        return self.flow.tids.get(self.key(expr.name), _NONE) if expr._production == "Var" else _NONE

    def assign(self, name: str, expr) -> None:
        """``name = expr`` for tensors (aliasing) and TaskIds (copying)."""
        if expr._production == "Var":
            self.alias(name, expr.name)
        else:
            self.flow.roots[name] = _whole(name)
            self.flow.tids[self.key(name)] = _NONE

    def alias(self, name: str, source: str) -> None:
        self.flow.roots[name] = self.roots_of(source)
        if self.key(name) != self.key(source):
            self.flow.tids[self.key(name)] = self.flow.tids.get(self.key(source), _NONE)

    # -- statements ------------------------------------------------------------------------------

    def let(self, let, path, cluster, manual) -> None:
        name, value = let.var.name, let.value
        kind = value._production
        if kind == "Var":
            self.assign(name, value)
        elif kind == "AssembleTensor" and value.target._production == "Var":
            targets = self.flow.roots[name] = self.roots_of(value.target.name)
            if value.source._production == "Var":  # (a copy, before fuse_create_assemble_to_slice)
                self.copy_into(targets, self.roots_of(value.source.name))
                self.merge_writers(path, cluster)
        elif kind == "SliceTensor" and value.tensor._production == "Var":
            offsets = [_constant(e) for e in value.offset]
            extents = [None if value.clamp else _constant(e) for e in value.shape]
            self.flow.roots[name] = frozenset((root, _slice_box(box, offsets, extents))
                                              for root, box in self.roots_of(value.tensor.name))
        elif kind in ("TransposeTensor", "ReshapeTensor") and value.tensor._production == "Var":
            self.flow.roots[name] = frozenset((root, _reshaped_box(box)) for root, box in self.roots_of(value.tensor.name))
        elif kind == "SetItem":
            self.flow.tids[self.key(name)] = self.tids_of(value.array) | self.tids_of(value.value)
        elif kind == "GetItem":
            self.flow.tids[self.key(name)] = self.tids_of(value.array)
        elif kind in ("CreateArray", "NoTask"):
            self.flow.tids[self.key(name)] = _NONE
        elif kind == "CreateTensor":
            self.new_buffer(name)

    def copy_into(self, targets: frozenset, sources: frozenset) -> None:
        """Rows of ``targets`` now hold what the last writers of ``sources`` wrote: each is one
        more possible last writer of some part of them (a copy is no task); a target left more
        than MERGED_WRITERS goes in ``flow.wide``."""
        copied = {(node, _PART) for root, box in sources for node in self.writers_of(root, box)}
        if copied:
            for target, _ in targets:
                now = self.flow.writers[target] = self.flow.writers.get(target, _NONE) | copied
                if len(now) > MERGED_WRITERS:
                    self.flow.wide.append(target)

    def new_buffer(self, name: str) -> None:
        buffer = self.allocation(name)
        self.flow.roots[name] = _whole(buffer)
        self.flow.writers[buffer] = _NONE

    def alloc(self, stmt, path, cluster, manual) -> None:
        for create in stmt.creates:
            self.new_buffer(create.var.name)

    def task(self, stmt, path, cluster, manual) -> None:
        kernel = self.kernels.get(stmt.kernel)
        node = self.site(path, stmt.kernel, _core(kernel), cluster, manual, barrier=False)
        self.deps(node, stmt.deps)
        accesses = _accesses(stmt, kernel)
        self.data_edges(node, accesses)
        self.outputs(node, stmt, kernel)
        if stmt.tid is not None:
            self.flow.tids[self.key(stmt.tid.name)] = frozenset([node])

    def outputs(self, node: str, stmt, kernel) -> None:
        for i, out in enumerate(stmt.outs):
            arg = _written_arg(stmt, kernel, i)
            if arg is not None:
                self.flow.roots[out.name] = self.roots_of(arg)
            else:
                self.new_buffer(out.name)
                ((buffer, _),) = self.roots_of(out.name)
                self.flow.writers[buffer] = frozenset(((node, None),))

    def cell_decl(self, stmt, path, cluster, manual) -> None:
        self.flow.tids[stmt.cell] = _NONE

    def cell_set(self, stmt, path, cluster, manual) -> None:
        self.flow.tids[stmt.cell] = self.tids_of(stmt.value)

    def dummy(self, stmt, path, cluster, manual) -> None:
        node = self.site(path, "barrier", None, cluster, manual, barrier=True)
        self.deps(node, stmt.deps)
        self.flow.tids[self.key(stmt.var.name)] = frozenset([node])

    def host_fence(self, stmt, path, cluster, manual) -> None:
        node = self.site(path, "barrier", None, cluster, manual, barrier=True)
        self.deps(node, stmt.deps)
        if stmt.tensor._production == "Var":
            self.data_edges(node, [(stmt.tensor.name, ArgDir.InOut)])

    def deps(self, node: str, deps) -> None:
        for dep in deps:
            kind = dep._production
            if kind == "CellDep":  # the latest TaskId a cell holds: a guarded compiler edge
                sources = self.flow.tids.get(dep.cell, _NONE)
                tooltip = f"deps on the TaskId cell {dep.cell} (compiler-derived, guarded)"
                self.explicit_edges(node, sources, "explicit-compiler", base_name(dep.cell), True, tooltip)
                continue
            if kind == "DepEdge":
                ref, index, size, guarded = dep.tid, dep.index, dep.size, dep.guarded
                author = "user" if dep.user else "compiler"
                how = f"{dep.source.name}, {'guarded' if guarded else 'unguarded'}"
            else:
                ref = dep.array if kind == "DepItem" else dep.value
                index = dep.index if kind == "DepItem" else None
                author = "compiler" if kind == "DerivedDep" else "user"
                guarded = False
                if ref._production != "Var":
                    continue
                size = self.sizes.get(self.key(ref.name), 0) if index is None else 0
                how = "unresolved"
            if ref._production != "Var":
                continue
            label = base_name(ref.name) + (f"[{_expr_text(index)}]" if index is not None else f"[{size}]" if size else "")
            tooltip = f"deps on {ref.name} ({author}-written, {how})"
            self.explicit_edges(node, self.tids_of(ref), f"explicit-{author}", label, guarded, tooltip)

    def scope(self, stmt, path, cluster, manual) -> None:
        mode = stmt.mode
        origin = getattr(stmt, "origin", None)
        origin_name = "compiler" if stmt._production == "CompilerScope" else origin.name if origin is not None else None
        label = f"{mode.name.upper()} scope" + (f" ({origin_name})" if origin_name else "")
        inner = self.cluster(path, label, "scope-manual" if mode is ScopeMode.manual else "scope-auto", cluster)
        self.body(stmt.body, path, inner, manual or mode is ScopeMode.manual)

    def loop(self, stmt, path, cluster, manual) -> None:
        parallel = stmt._production == "For" and stmt.kind is LoopKind.parallel
        if stmt._production == "While":
            label = "pl.while_ " + ", ".join(base_name(it.var.name) for it in stmt.iters)
        else:
            label = f"{'pl.parallel' if parallel else 'pl.range'} {base_name(stmt.var.name)}"
        inner = self.cluster(path, label, "loop", cluster)
        # A TaskId array-carried through a parallel loop stands for its init in every iteration;
        # the iterations' ids collect in the loop's result (bind_task_ids).
        arrays = {
            i for i, it in enumerate(stmt.iters)
            if parallel and getattr(getattr(it, "plan", None), "array", 0) > 0
        }
        collected: dict[int, frozenset[str]] = {i: _NONE for i in arrays}
        for it in stmt.iters:
            self.assign(it.var.name, it.init)

        def on_yield(values: tuple) -> None:
            for i, value in enumerate(values):
                if i in arrays:
                    collected[i] |= self.tids_of(value)
            self.parallel_assign([(it.var.name, v) for i, (it, v) in enumerate(zip(stmt.iters, values)) if i not in arrays])

        self.yield_to.append(on_yield)
        self.loop_twice(stmt, lambda: self.body(stmt.body, path, inner, manual), path, cluster)
        self.yield_to.pop()
        for i, (it, result) in enumerate(zip(stmt.iters, stmt.results)):
            if i in arrays:
                self.flow.roots[result.name] = _whole(result.name)
                self.flow.tids[self.key(result.name)] = self.tids_of(it.init) | collected[i]
            else:
                self.alias(result.name, it.var.name)

    def branch(self, stmt, path, cluster, manual) -> None:
        results = [getattr(r, "var", r).name for r in getattr(stmt, "results", ())]
        self.yield_to.append(lambda values: self.parallel_assign(list(zip(results, values))))
        self.branches(stmt, path, cluster, manual)
        self.yield_to.pop()

    def yield_(self, stmt, path, cluster, manual) -> None:
        if self.yield_to:
            self.yield_to[-1](stmt.values)

    def parallel_assign(self, pairs: list[tuple[str, Any]]) -> None:
        """All right-hand sides are read before any name is written (D16)."""
        snapshot = [(name, self.roots_of(v.name) if v._production == "Var" else None, self.tids_of(v)) for name, v in pairs]
        for name, roots, tids in snapshot:
            self.flow.roots[name] = roots if roots is not None else _whole(name)
            self.flow.tids[self.key(name)] = tids


def _runs_at_least_once(loop) -> bool:
    if not hasattr(loop, "start"):  # a while loop
        return False
    bounds = (loop.start, loop.stop, loop.step)
    if any(b._production != "Int" for b in bounds):
        return False
    start, stop, step = (b.value for b in bounds)
    return (step > 0 and start < stop) or (step < 0 and start > stop)


def _constant(expr) -> int | None:
    """The value of an integer constant expression, else None."""
    return expr.value if expr._production == "Int" else None


def _core(kernel) -> str | None:
    if kernel is None:
        return None
    core = getattr(kernel, "core", None)
    return core.name if core is not None else kernel.kind.name


def _expr_text(expr) -> str:
    kind = expr._production
    if kind == "Var":
        return base_name(expr.name)
    if kind == "Int":
        return str(expr.value)
    if kind == "Bin":
        return f"{_expr_text(expr.a)}{expr.op.value}{_expr_text(expr.b)}"
    return "…"


def _accesses(stmt, kernel) -> list[tuple[str, ArgDir]]:
    """The tensor arguments of a task with the direction the runtime sees."""
    out = []
    for i, arg in enumerate(stmt.args):
        if arg.value._production != "Var":
            continue
        direction = getattr(arg, "dir", None)
        if direction is None:  # surface / ssa: the kernel's declared direction
            if kernel is None or i >= len(kernel.params) or kernel.params[i].type._production != "TensorType":
                continue
            direction = ArgDir.NoDep if arg.no_dep else _PARAM_ARG_DIR[kernel.params[i].dir]
        if direction is not ArgDir.Scalar:
            out.append((arg.value.name, direction))
    return out


def _written_arg(stmt, kernel, result_index: int) -> str | None:
    """The argument whose buffer a task's ``result_index``-th output is, or None for a new tensor
    (``passes/kernels.py``'s ``written_param_of_result``)."""
    if kernel is None or result_index >= len(kernel.results):
        return None
    index = written_param_of_result(kernel, result_index)
    if index is None or index >= len(stmt.args) or stmt.args[index].value._production != "Var":
        return None
    return stmt.args[index].value.name


# -- emission ------------------------------------------------------------------------------------

_LAUNCH_CORE = {"AicLaunch": "AIC", "AivLaunch": "AIV", "MixedLaunch": "MIX"}


class _EmissionWalker(_Walker):
    """The emission language: tasks are ``Submit`` statements (barriers ``GuardedDummy`` too), built
    up by ``TaskArgs`` and ``Deps``."""

    def __init__(self):
        super().__init__()
        self.pending: dict[str, tuple[list, list]] = {}  # args symbol -> (tensor adds, deps)
        self.arrays: dict[str, list] = {}  # offsets or extents array -> its values (None: not a constant)
        self.outs_node: dict[str, str] = {}
        self.comment = ""
        self.handlers: dict[str, Callable] = {
            "Comment": self.note_comment, "TaskArgs": self.task_args, "Deps": self.deps, "Submit": self.submit,
            "GuardedDummy": self.guarded_dummy, "BindRef": self.bind_ref, "ViewTensor": self.view,
            "TransposeView": self.reshaped_view, "ReshapeView": self.reshaped_view, "DeclTensor": self.decl_tensor,
            "ShapeArray": self.shape_array, "ViewExtents": self.shape_array,
            "AssignVar": self.decl_tensor, "DeclTid": self.set_tid, "AssignTid": self.set_tid,
            "DeclTidArray": self.decl_tid_array, "FillTidArray": self.fill_tid_array,
            "CopyTidArray": self.copy_tid_array, "SetTidSlot": self.set_tid_slot,
            "ScopeBlock": self.scope, "Block": self.block, "ForBlock": self.loop, "WhileBlock": self.loop, "IfBlock": self.branch,
        }

    def run(self, unit) -> None:
        for external in unit.externals:
            self.flow.roots[external.name] = _whole(external.name)
        self.body(unit.body, (), None, False)

    def tid_value(self, value) -> frozenset[str]:
        kind = value._production
        if kind == "TidCopy" and value.value._production == "Var":
            return self.flow.tids.get(value.value.name, _NONE)
        if kind == "TidSlot":
            return self.flow.tids.get(value.array, _NONE)
        return _NONE

    # -- statements ------------------------------------------------------------------------------

    def note_comment(self, stmt, path, cluster, manual) -> None:
        self.comment = stmt.text

    def task_args(self, stmt, path, cluster, manual) -> None:
        if stmt.comment is not None:
            self.comment = stmt.comment
        self.pending[stmt.name] = (list(zip(stmt.tensors, stmt.dirs)), [])

    def deps(self, stmt, path, cluster, manual) -> None:
        self.dep_edges(stmt.args, stmt.pushes)

    def dep_edges(self, args: str, pushes) -> None:
        """The dependencies the entries of ``args``' array add to its task."""
        edges = self.pending.setdefault(args, ([], []))[1]
        for push in pushes:
            if push._production == "PushDepSlots":
                label = f"{base_name(push.array)}[{push.size}]"
                edges.append((self.flow.tids.get(push.array, _NONE), label, True, f"deps on the {push.size} slots of {push.array}"))
            else:
                name = push.tid
                label = base_name(name) + (f"[{_expr_text(push.index)}]" if push.index is not None else "")
                edges.append((self.flow.tids.get(name, _NONE), label, push.guarded, f"deps on {name}"))

    def submit(self, stmt, path, cluster, manual) -> None:
        launch = stmt.launch._production
        barrier = launch == "DummyLaunch"
        kernel = self.comment.split(": ", 1)[1] if ": " in self.comment else self.comment or stmt.args
        if self.comment.startswith("Group ") and ": " in self.comment:  # Group <group>: <its lanes>
            kernel = self.comment[len("Group "):].split(": ", 1)[0]
        node = self.site(path, kernel, _LAUNCH_CORE.get(launch), cluster, manual, barrier=barrier)
        self.finish_task(node, stmt.args, stmt.outs)
        if stmt.tid is not None:  # (its TaskId declared: outs.task_id())
            self.flow.tids[stmt.tid] = frozenset([node])

    def guarded_dummy(self, stmt, path, cluster, manual) -> None:
        self.dep_edges(stmt.args, stmt.pushes)
        node = self.site(path, "barrier", None, cluster, manual, barrier=True)
        self.finish_task(node, stmt.args, stmt.outs)
        self.flow.tids[stmt.tid] = frozenset([node])

    def finish_task(self, node: str, args: str, outs: str | None) -> None:
        adds, deps = self.pending.pop(args, ([], []))
        for sources, label, guarded, tooltip in deps:
            self.explicit_edges(node, sources, "explicit", label, guarded, tooltip)
        self.data_edges(node, adds)
        if outs is not None:
            self.outs_node[outs] = node

    def bind_ref(self, stmt, path, cluster, manual) -> None:
        buffer = self.allocation(stmt.name)
        self.flow.roots[stmt.name] = _whole(buffer)
        producer = self.outs_node.get(stmt.source)
        self.flow.writers[buffer] = frozenset(((producer, None),)) if producer else _NONE

    def shape_array(self, stmt, path, cluster, manual) -> None:
        """The values of a slice's offsets or extents (a clamped slice's extents not known)."""
        clamped = stmt._production == "ViewExtents" and stmt.clamp
        self.arrays[stmt.name] = [None if clamped else _constant(value) for value in stmt.values]

    def view(self, stmt, path, cluster, manual) -> None:
        offsets = self.arrays.get(stmt.offsets, [None])
        extents = self.arrays.get(stmt.shapes, [None])
        self.flow.roots[stmt.name] = frozenset((root, _slice_box(box, offsets, extents))
                                               for root, box in self.roots_of(stmt.tensor))

    def reshaped_view(self, stmt, path, cluster, manual) -> None:
        self.flow.roots[stmt.name] = frozenset((root, _reshaped_box(box)) for root, box in self.roots_of(stmt.tensor))

    def decl_tensor(self, stmt, path, cluster, manual) -> None:
        if stmt.value is not None and stmt.value._production == "Var":
            self.flow.roots[stmt.name] = self.roots_of(stmt.value.name)

    def set_tid(self, stmt, path, cluster, manual) -> None:
        self.flow.tids[stmt.name] = self.tid_value(stmt.value)

    def decl_tid_array(self, stmt, path, cluster, manual) -> None:
        self.flow.tids[stmt.name] = _NONE

    def fill_tid_array(self, stmt, path, cluster, manual) -> None:
        self.flow.tids[stmt.name] = self.tid_value(stmt.value)

    def copy_tid_array(self, stmt, path, cluster, manual) -> None:
        self.flow.tids[stmt.dst] = self.flow.tids.get(stmt.src, _NONE)

    def set_tid_slot(self, stmt, path, cluster, manual) -> None:
        self.flow.tids[stmt.array] = self.flow.tids.get(stmt.array, _NONE) | self.tid_value(stmt.value)

    def scope(self, stmt, path, cluster, manual) -> None:
        is_manual = stmt.mode is ScopeMode.manual
        inner = self.cluster(path, f"{stmt.mode.name.upper()} scope", "scope-manual" if is_manual else "scope-auto", cluster)
        self.body(stmt.body, path, inner, manual or is_manual)

    def block(self, stmt, path, cluster, manual) -> None:
        self.body(stmt.body, path, cluster, manual)

    def loop(self, stmt, path, cluster, manual) -> None:
        label = "while" if stmt._production == "WhileBlock" else f"for {base_name(stmt.var)}"
        inner = self.cluster(path, label, "loop", cluster)
        self.loop_twice(stmt, lambda: self.body(stmt.body, path, inner, manual), path, cluster)

    def branch(self, stmt, path, cluster, manual) -> None:
        self.branches(stmt, path, cluster, manual)
