"""order_write_after_read: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.ssa import check_single_definition, check_yields
from nanopass.languages.statements import binders_in_order
from nanopass.languages.terms import ArgDir
from nanopass.rewrite import Pass, register

from .dep_edges import EdgeWriter, needed_edges
from .aliases import buffer_roots
from . import hazards as hazard_module
from .hazards import Site, find_hazards, placed_in_manual_scopes, prework, roots_met_past_runtime, shared_in_loops, storage_map, unordered_war_possible, untracked_unless_manual
from .host_accesses import host_target, host_waits_for
from .kernels import kernel_table
from .util import iter_stmts

D = DIRECTED
_INOUT = ArgDir.InOut
VIEWS = ("SliceTensor", "TransposeTensor", "ReshapeTensor")
# Whether the walk leaves the facts of a manual scope with no loop around it unmarked when it
# ends (``find_hazards``'s ``close_run_once``: every question asked here of ``closed`` is asked
# of two accesses of one scope); off only in the tests that compare the two.
SCOPE_END_SHORTCUT = True
# Whether, in a function with MANUAL scopes, the facts' covers hold only the names a dependency
# or a covering transfer may read (``find_hazards``'s ``forget_unread``); off only in the tests
# that compare the two.
UNREAD_NAMES_SHORTCUT = True
# Whether, in a function with MANUAL scopes, an InOut argument's read meets no fact in the walk
# (``find_hazards``'s ``inout_reads_meet=False``: ``needs_edge`` and every other pair the pass
# keeps take the pair of a write and the argument's write wherever they take that of the write
# and its read; without MANUAL scopes no write is live to meet); off only in the tests that
# compare the two.
INOUT_WRITES_MEET = True
# Whether the rewrite returns the tasks no edge changes as they are (``rewrite_task`` is asked
# only of a target or source of an edge); off only in the tests that compare the two.
UNCHANGED_AS_THEY_ARE = True
# Whether the rewrite visits only the statements of the function's body that hold a statement it
# changes (found by the sites' positions; the others are kept as they are, unvisited: with
# ``UNCHANGED_AS_THEY_ARE``, no task they hold is changed); off only in the tests that compare the two.
UNVISITED_AS_THEY_ARE = True


def in_one_instance(earlier, later) -> bool:
    """Both accesses run in one instance of one MANUAL scope (the user owns that ordering)."""
    return earlier.scope is not None and earlier.scope == later.scope and not earlier.closed


def needs_edge(earlier, later) -> bool:
    if later.host:  # a host element access waits only for what the runtime makes it wait for
        return not host_waits_for(earlier, later)
    # (``in_one_instance``, ``hazards.hazard_kind`` and ``hazards.runtime_orders`` written out:
    # the walk asks this of every pair it meets)
    scope = earlier.scope
    if scope is not None and scope == later.scope and not earlier.closed:
        return False  # in one instance: the user's
    if scope is not None or later.scope is not None:
        # across a MANUAL scope boundary (the scopes differ, or it is the same static scope in
        # two of its instances): the runtime orders none of it
        return True
    # AUTO on both sides: an unordered write-after-read (the runtime orders one only between InOut tasks)
    return not earlier.write and later.write and not (earlier.dir is _INOUT and later.dir is _INOUT)


def waited(earlier, later) -> bool:
    """A host access in a manual scope after a task of the same instance that the runtime does
    not make it wait for: it waits through a dummy's created element (``HostFence.wait``)."""
    return later.host and in_one_instance(earlier, later) and needs_edge(earlier, later)


def shared_buffer_pair(earlier, later, shared: frozenset) -> bool:
    """A pair of task accesses in one instance of a MANUAL scope to a buffer the compiler made
    every iteration of a loop in the scope share (``hazards.shared_in_loops``): the user ordered
    only the accesses to one iteration's buffer, so the compiler orders them all."""
    return not later.host and earlier.root in shared and in_one_instance(earlier, later)


_NOT_A_NAME = ""  # (an alternative that is no variable: a constant init, none yielded)


def _yield_of(body):
    """The ``Yield`` ending ``body``, a body that is one scope seen through (``buffer_roots``'
    reading: a user's scope too); None if there is none."""
    while len(body) == 1 and body[0]._production in ("Scope", "CompilerScope"):
        body = body[0].body
    return body[-1] if body and body[-1]._production == "Yield" else None


def placed_through(func, hazards, placed: dict[str, bool], roots: dict[str, str]) -> dict[int, frozenset]:
    """Task site -> the placed sources (``hazards.placed_in_manual_scopes``) its arguments are,
    or are views of (a view of a source, a task's result that is one). ``roots`` is
    ``buffer_roots`` with every loop carry its own root: a name that may hold one of several
    values (a loop carry or a loop's result: its init or a value its body yields; an if's result:
    what either branch yields) goes through the sources of each, and, where one of them is no
    placed source but another is, through ``None`` too, so that it is never taken for one source
    alone (``placement_pair``): two accesses through it in the iterations or on the paths where
    it is another buffer than the source are no accesses to that source the user named."""
    views = {
        s.var.name: s.value.tensor.name
        for s in iter_stmts(func.body)
        if s._production == "Let" and s.value._production in VIEWS and s.value.tensor._production == "Var"
        and s.var.name not in placed
    }
    alternatives: dict[str, list[str]] = {}  # a carry, a loop's or an if's result -> the names it may be
    for s in iter_stmts(func.body):
        kind = s._production
        if kind == "For" or kind == "While":
            yld = _yield_of(s.body)
            for k, (it, result) in enumerate(zip(s.iters, s.results)):
                values = [it.init, yld.values[k] if yld is not None and k < len(yld.values) else None]
                names = [v.name for v in values if v is not None and v._production == "Var"]
                if len(names) < len(values):
                    names.append(_NOT_A_NAME)
                alternatives[it.var.name] = names
                alternatives[result.name] = [it.var.name]
        elif kind == "If":
            yields = (_yield_of(s.then), _yield_of(s.orelse))
            for k, res in enumerate(getattr(s, "results", ())):
                values = [y.values[k] if y is not None and k < len(y.values) else None for y in yields]
                names = [v.name for v in values if v is not None and v._production == "Var"]
                if len(names) < len(values):
                    names.append(_NOT_A_NAME)
                alternatives[getattr(res, "var", res).name] = names
    memo: dict[str, frozenset] = {}

    def sources_of(name: str) -> frozenset:
        got = memo.get(name)
        if got is not None:
            return got
        start, out, seen, stack = name, set(), set(), [name]
        while stack:
            name = stack.pop()
            if name in seen:
                continue
            seen.add(name)
            name = roots.get(name, name)
            if name in placed:
                out.add(name)
            elif name in alternatives:
                stack.extend(alternatives[name])
            elif name in views:
                stack.append(views[name])
            else:
                out.add(None)
        # (no placed source: none; one or more, and some value none: ``None`` with them)
        got = memo[start] = frozenset(out) if out - {None} else frozenset()
        return got

    out: dict[int, frozenset] = {}
    for site in hazards.sites:
        if not site.host and site.task._production == "Task":
            found = frozenset()
            for a in site.task.args:
                if a.value._production == "Var":
                    found |= sources_of(a.value.name)
            out[site.index] = found
    return out


def placement_pair(earlier, later, through: dict[int, frozenset], placed: dict[str, bool]) -> bool:
    """A pair of task accesses in one instance of a MANUAL scope that exists only because the
    compiler placed an assemble's source in its target's rows: one of them goes through a placed
    source, and they are not two accesses to that one source in one iteration (which the user
    names and orders). The user wrote the source as a fresh tensor and its assemble as a copy no
    ``deps=`` can name, so the compiler orders the pair. Accesses to one source placed in a loop
    inside the scope are all paired (its iterations share the rows): edges the user's ``deps=``
    may have made needless within an iteration, never fewer."""
    if later.host or not in_one_instance(earlier, later):
        return False
    mine, theirs = through.get(earlier.site, frozenset()), through.get(later.site, frozenset())
    if not mine and not theirs:
        return False
    return not (mine == theirs and len(mine) == 1 and not placed[next(iter(mine))])


@register
class OrderWriteAfterRead(Pass):
    """Add a dependency for every hazard the runtime will not order by itself.

    The runtime never records readers, so a task that writes a tensor does not wait for earlier
    readers of it (unless both are InOut): each such write-after-read pair on overlapping
    regions (same storage root; whole tensor, constant box, unknown = overlapping) gets the
    reader's TaskId as an explicit dependency of the writer, across loop iterations and
    branches too. At a MANUAL scope's boundaries the runtime tracks nothing: a task inside the
    scope touching a tensor last written (or, for a write, read) before it, and a task after the
    scope touching a tensor written inside it, get the other task's TaskId as well; so do two
    tasks of one static manual scope in two of its instances (a scope in a loop). A host element
    read or write waits only for the tensor's creator and its TensorMap producers (and a write for
    their consumers): before one that conflicts with a task the runtime does not make it wait for
    (a write after a task that only read the tensor, any access after a task of a MANUAL scope),
    a ``HostFence`` takes the tensor as INOUT with that task's TaskId as a dependency; for an
    access inside a manual scope the fence goes before the manual scope, or, after a task of its
    scope instance, is a host wait (``HostFence`` with ``wait``) just before it.
    Nothing is added for pairs the runtime orders, pairs inside one instance of a manual scope
    (the user's, but for a buffer ``place_loop_allocations_before_scopes`` made every iteration of
    a loop in the scope share, or the pairs an assemble's placement made, ``placement_pair``:
    those are all ordered), pairs the later task's own dependencies order, NoDep slots and manual_dep
    tensors, or edges the user already wrote. Off with the option ``order_war=False``
    (``--no-war-ordering``).
    Afterwards every write-after-read, every manual-boundary and every task/host hazard is ordered.
    Preserves the single definitions (new TaskIds and barriers take fresh names) and the yields
    (statements go only before a let, write or scope, or after a task).
    """

    name = "order_write_after_read"
    source = DIRECTED
    target = DIRECTED
    preserves = frozenset({check_single_definition, check_yields})

    def run(self, program):
        if not self.ctx.option("order_war", True):
            return program
        func = program.orch
        untracked = untracked_unless_manual(func)
        manual = untracked is None
        kernels = kernel_table(program)
        store = storage_map(func, kernels)
        # without manual scopes only write-after-read pairs the runtime leaves unordered can need
        # an edge (a host write after a task read among them): writers need no tracking, and no
        # pair at all needs one if no root can form one
        if not manual:
            if not unordered_war_possible(func, store, untracked):
                return program
            scan = prework(func, store, untracked, war=hazard_module.WAR_ROOTS)
        else:
            scan = prework(func, store, sources=UNREAD_NAMES_SHORTCUT)
            untracked = scan.untracked
        # (outside every MANUAL scope, a compiler's too, or without a copy of a name, no loop's
        # buffer is shared; without a placed source none is placed: no walk for either)
        shared = shared_in_loops(func) if scan.any_manual and scan.copies else frozenset()
        keep = needs_edge if not shared else (
            lambda earlier, later: needs_edge(earlier, later) or shared_buffer_pair(earlier, later, shared))
        placed = placed_in_manual_scopes(func) if manual and scan.places else {}
        if placed:  # (the pairs with a placed source's accesses are told apart once the sites are known)
            placed_roots = {root for name in placed for root, _ in store.get(name, ())}
            find_keep = lambda earlier, later, keep=keep: keep(earlier, later) or (  # noqa: E731
                not later.host and earlier.root in placed_roots and in_one_instance(earlier, later))
        found = find_keep if placed else keep
        # (a write in an AUTO scope pairs, as ``keep`` takes pairs, only with a later host access or
        # task in a manual scope: it is followed only on the roots those may be of, found once a task
        # writes outside every manual scope)
        met_after = (lambda: roots_met_past_runtime(func, store)) if manual else None
        # (without MANUAL scopes ``keep`` takes no pair of a root outside ``war_roots``: only those are followed)
        followed = scan.war if not scan.any_manual else None
        hazards = find_hazards(func, kernels, untracked, track_writes=manual, keep=found, store=store, met_after=met_after,
                               scan=scan, followed=followed, close_run_once=not SCOPE_END_SHORTCUT,
                               forget_unread=True, inout_reads_meet=not (manual and INOUT_WRITES_MEET))
        if placed:
            through = placed_through(func, hazards, placed, buffer_roots(func, kernels, lambda it: False))
            keep = lambda earlier, later, keep=keep: keep(earlier, later) or placement_pair(  # noqa: E731
                earlier, later, through, placed)
            needed = needed_edges(hazards, lambda earlier, later: keep(earlier, later) and not waited(earlier, later))
        else:  # (the walk kept only the pairs ``keep`` accepts; only a pair with a host access is ``waited``)
            needed = needed_edges(hazards, (lambda earlier, later: not waited(earlier, later)) if hazards.hosts else None)
        by_access: dict[int, dict[int, bool]] = {}  # host access -> what it waits for through a host wait
        operands: dict[int, str] = {}
        failed: list[int] = []
        # (the fences and host waits are of host accesses: without one, no pair looked at for them)
        if hazards.hosts:
            for earlier, later in hazards.pairs:
                if later.host and waited(earlier, later):
                    sources = by_access.setdefault(later.site, {})
                    sources[earlier.site] = sources.get(earlier.site, False) or earlier.stale
            operands, failed = self.fence_operands(hazards, needed, store)
        for access in failed:  # (before the scope, nothing can stand for it)
            for source, older in needed.pop(access).items():
                sources = by_access.setdefault(access, {})
                sources[source] = sources.get(source, False) or older
        waits = self.wait_sites(hazards, needed, by_access)
        if not needed:
            return program
        for site in waits:  # (a wait site's fence takes the tensor accessed after it)
            operands[site] = host_target(hazards.sites[site].task)[0].name
        self.writer = EdgeWriter(func, hazards, needed, "war", operands=operands, waits=frozenset(waits), cells=scan.cells)
        # the indices of the function body's statements that hold a statement the rewrite may
        # change (as ``EdgeWriter`` places them): the tasks ``rewrite_task`` may change, each
        # target and each source (it changes no other: ``EdgeWriter.site_index``), and the
        # statement each host fence goes before (the access, or the manual scope around it)
        # (with few edges for the body; else a visit of each statement costs less)
        changed = set() if UNVISITED_AS_THEY_ARE and UNCHANGED_AS_THEY_ARE and 2 * len(needed) < len(func.body) else None
        for target, sources in sorted(needed.items()):
            t = hazards.sites[target]
            if changed is not None:
                changed.add((t.fence or t).position[0] if t.host else t.position[0])
            for source in sorted(sources):
                s = hazards.sites[source]
                if changed is not None:
                    changed.add(s.position[0])
                self.ctx.note(
                    "added-edge", f"{_what(t)} now waits for {s.task.kernel} (line {_line(s.task)})", t.task.span
                )
        if changed is not None:
            body = self.visit_at(func.body, changed)
        else:
            body = self.visit_all(func.body)
        body = tuple(self.writer.declarations()) + body
        return self.build(program, orch=self.build(func, body=body))

    def visit_at(self, body: tuple, changed: set[int]) -> tuple:
        """``visit_all(body)``, but for the statements whose index is not in ``changed``: those are
        kept as they are, unvisited (no statement they hold is rewritten)."""
        out = None
        start = 0
        for i in sorted(changed):
            stmt = body[i]
            new = self.visit(stmt)
            if new is stmt:
                continue
            if out is None:
                out = []
            out += body[start:i]
            start = i + 1
            if type(new) is list:
                out += new
            else:
                out.append(new)
        if out is None:
            return body
        out += body[start:]
        return tuple(out)

    def wait_sites(self, hazards, needed, by_access) -> set[int]:
        """For each host access in a manual scope that must wait for tasks through a host wait
        (``by_access``: access site -> {source: older runs too}; a task of the same scope instance,
        ``waited``, or one before the scope no fence there can wait for, ``unfenceable``), a site of
        its own (added to ``hazards.sites``, in the order of the accesses) whose edges a
        ``HostFence`` with ``wait`` just before the access carries, added to ``needed``; those
        sites."""
        waits = set()
        for access in sorted(by_access):
            h = hazards.sites[access]
            site = Site(len(hazards.sites), h.task, h.path, h.loops, h.scope, h.position, h.auto_scope, True, None)
            hazards.sites.append(site)
            needed[site.index] = by_access[access]
            waits.add(site.index)
        return waits

    def fence_operands(self, hazards, needed, store) -> tuple[dict[int, str], list[int]]:
        """Host access site -> the tensor its fence takes as INOUT; and the sites whose fence, before the manual scope, no tensor can
        stand for (their tensor is made inside the scope and what they wait for is not one root
        made before it: they wait through a host wait instead)."""
        operands: dict[int, str] = {}
        failed: list[int] = []
        inside: dict[int, set[str]] = {}  # manual scope -> the names defined in it
        met: dict[int, set[str]] = {}  # host access site -> the roots of the accesses it must wait for
        for earlier, later in hazards.pairs:
            if later.host and needs_edge(earlier, later) and not waited(earlier, later):
                met.setdefault(later.site, set()).add(earlier.root)
        for target in sorted(needed):
            site = hazards.sites[target]
            if not site.host:
                continue
            tensor = host_target(site.task)[0].name
            if site.fence is None:
                operands[target] = tensor
                continue
            scope = site.fence.task
            names = inside.get(id(scope))
            if names is None:
                names = inside[id(scope)] = {b.name for b in binders_in_order(scope.body)}
            # (a tensor that may be one of several roots needs a fence on those it meets only)
            roots = met.get(target) or {root for root, _ in store.get(tensor, ())}
            if tensor not in names:
                operands[target] = tensor
            elif len(roots) == 1 and not roots & names:
                operands[target] = next(iter(roots))
            else:
                failed.append(target)
        return operands, failed

    def Task(self, task):
        if UNCHANGED_AS_THEY_ARE and id(task) not in self.writer.site_index:
            return task
        out = self.writer.rewrite_task(task)
        return out[0] if len(out) == 1 else out  # (a task left as it is keeps its body as it is)

    def Let(self, let):
        fences = self.writer.fences(let)
        return fences + [let] if fences else let

    def WriteTensor(self, write):
        fences = self.writer.fences(write)
        return fences + [write] if fences else write

    def Scope(self, scope):
        fences = self.writer.fences(scope)
        rebuilt = self.rebuild(scope)
        return fences + [rebuilt] if fences else rebuilt


def _base(name: str) -> str:
    return name.split("__", 1)[0]


def _line(node) -> str:
    return str(node.span.line) if node.span is not None else "?"


def _what(site) -> str:
    if site.host:
        tensor, write = host_target(site.task)
        return f"the host {'write' if write else 'read'} of {_base(tensor.name)} (line {_line(site.task)})"
    return f"task {site.task.kernel} (line {_line(site.task)})"
