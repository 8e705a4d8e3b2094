"""Turning hazard pairs into compiler dependency edges (shared by the passes that derive them).

Given, for some tasks, the earlier tasks they must wait for and which of their runs (the latest
only, or older ones too: the hazard facts' ``stale``), ``EdgeWriter`` rewrites the program:

- when only the latest run of the earlier task must be waited for and it dominates the later
  one (it comes first, in the same block or one that encloses it, so its latest run is the one
  of the same iteration), the edge names its TaskId directly (``DerivedDep``; inserted
  unguarded);
- when only the latest run must be waited for and it does not dominate the later task (it is in
  a branch, in a loop the later one is not in, later in the same loop body, or inside a scope
  that closes first) the edge goes through a *cell* that holds the TaskId of the latest run of
  the earlier task (``CellDecl`` at the start of the function, ``CellSet`` after the task,
  ``CellDep`` at the later task; guarded, since the task may not have run yet);
- when older runs must be waited for too (a loop-carried pair whose source has run again since,
  or the runs of a loop the later task is after) and those runs are not ordered among themselves
  (``runs_ordered``), a *join cell* chains a dummy barrier after each run (``barrier =
  task_dummy(deps=[join, tid])``; ``join = barrier``), and the edge names the join; when they are
  ordered, the latest run stands for them (a direct edge or a cell, as above).

A later access that is a host element read or write waits through a *host fence*: a
``HostFence`` just before it (or, inside a manual scope, just before the outermost manual scope
around it) takes the tensor as INOUT and carries the edges, so that the access, which waits for
the tensor's TensorMap producers, waits for them. A host access in a manual scope after a task
of the same scope instance waits through a ``HostFence`` with ``wait`` just before it (a site of
its own, ``waits``): a dummy creating one element after the edges, whose element the host reads.

Tasks that become edge sources get a TaskId binder if they had none. Edges the user already
wrote are not added again.
"""

from __future__ import annotations

from operator import attrgetter

from nanopass.languages import DIRECTED
from nanopass.languages.terms import DType, LoopKind

from .cells import taken_names
from .hazards import Hazards, Site
from .util import FreshVersions

D = DIRECTED
TID_TYPE = D.ScalarType(DType.TASK_ID)
_PARALLEL = LoopKind.parallel  # (read once: an enum member read through its class costs a descriptor call)


def dominates(source: Site, target: Site) -> bool:
    """``source`` runs before ``target`` in the same run of every block enclosing ``source``."""
    return target.path[: len(source.path)] == source.path and source.position < target.position


def runs_ordered(site: Site, chained: bool, self_edge: bool, parallel: set[int] | None) -> bool:
    """Are the runs of a task ordered among themselves, so that waiting for the latest run waits
    for all of them? By the runtime when the region stays tracked and one InOut argument of the
    task rewrites, every run, one known region of one buffer (``chained``: ``Hazards.chained``,
    and not turned MANUAL: each run then waits for the one before); else by a compiler edge
    from each run to the latest before it (``self_edge``), which no two iterations of a
    ``pl.parallel`` loop (``parallel``: the ids of those loops, read only with ``self_edge``) get."""
    if chained:
        return True
    return self_edge and not any(loop in parallel for loop in site.loops)


class EdgeWriter:
    """Rewrites a function so that each listed task waits for its listed earlier tasks."""

    def __init__(
        self, func, hazards: Hazards, needed: dict[int, dict[int, bool]], tag: str, tracked: bool = True,
        operands: dict[int, str] | None = None, waits: frozenset = frozenset(), cells: set[str] | None = None,
    ):
        """``needed``: target site -> {source site: whether older runs than the latest must be
        waited for}. ``tracked``: the runtime keeps tracking the analysed region (False when the
        pass turns it into a MANUAL scope). A target that is a host access waits through a host
        fence of tensor ``operands[target]`` placed just before it, or before the manual scope
        around it (``Site.fence``). ``cells``: every cell a ``CellDecl`` or ``CellSet`` of ``func``
        names, when the caller knows them (``Prework.cells``; else found by a walk)."""
        self.hazards = hazards
        self.needed = needed
        self.tag = tag
        self.names = FreshVersions(taken_names(func, cells))
        self.plan: dict[int, list[tuple[str, int]]] = {}  # target site -> [(mode, source site)]
        self.cells: dict[int, str] = {}
        self.joins: dict[int, str] = {}
        self.tids: dict[int, str] = {}
        parallel = None  # (the pl.parallel loops, found when ``runs_ordered`` first reads them)
        self.operands = operands or {}
        self.waits = waits  # host sites waited for by a dummy's created element (``HostFence.wait``)
        self.fences_at: dict[int, list[int]] = {}  # id(statement) -> the host sites fenced just before it
        # the sources targets wait for: all of them, those through a cell, those through a join
        used, celled, joined = set(), set(), set()
        sites = hazards.sites
        for target, sources in sorted(needed.items()):
            t = sites[target]
            if t.host:
                t = t.fence or t
                self.fences_at.setdefault(id(t.task), []).append(target)
            modes = []
            for source, older in sorted(sources.items()):
                s = sites[source]
                used.add(source)
                chained, self_edge = tracked and source in hazards.chained, source in needed.get(source, ())
                if older and not chained and self_edge and parallel is None:
                    parallel = _parallel_loops(func.body)
                if older and not runs_ordered(s, chained, self_edge, parallel):
                    modes.append(("join", source))
                    joined.add(source)
                elif source != target and dominates(s, t):
                    modes.append(("direct", source))
                else:
                    modes.append(("cell", source))
                    celled.add(source)
            self.plan[target] = modes
        # (the cells an earlier pass made are looked for only where a cell or a join is used, and
        # only in a function that sets a cell, where the caller knows)
        look = (celled or joined) and (cells is None or bool(cells))
        self.existing_cells, self.existing_joins = _existing_cells(func) if look else ({}, {})
        # (the cells and joins an earlier pass made, as sets: ``rewrite_task`` asks once per task)
        self.reused_cells, self.reused_joins = set(self.existing_cells.values()), set(self.existing_joins.values())
        # names in the program order of the source tasks (D12: deterministic, readable)
        for source in sorted(used):
            s = sites[source]
            existing_tid = s.task.tid.name if s.task.tid is not None else None
            if s.task.tid is None:
                self.tids[source] = self.fresh(f"{s.task.kernel}_tid", "dep")
            if source in celled:
                self.cells[source] = self.existing_cells.get(existing_tid) or self.fresh_cell(s, "last")
            if source in joined:
                self.joins[source] = self.existing_joins.get(existing_tid) or self.fresh_cell(s, "all")
        # (the tasks ``rewrite_task`` changes: each target and each source; it leaves any other as it is)
        self.site_index = index = {}
        for i in self.plan:
            if not sites[i].host:
                index[id(sites[i].task)] = i
        for i in used:
            index[id(sites[i].task)] = i  # (a source is a task)

    # -- names -----------------------------------------------------------------------------------

    def fresh(self, base: str, role: str) -> str:
        return self.names.fresh(base, role)

    def fresh_cell(self, site: Site, what: str) -> str:
        return self.fresh(f"{site.task.kernel}_{what}", self.tag)

    def tid_of(self, site: int) -> str:
        task = self.hazards.sites[site].task
        return task.tid.name if task.tid is not None else self.tids[site]

    # -- rewriting -------------------------------------------------------------------------------

    def declarations(self) -> list:
        """CellDecls for the cells this writer made (not those an earlier pass declared)."""
        reused = self.reused_cells | self.reused_joins
        cells = sorted((set(self.cells.values()) | set(self.joins.values())) - reused)
        make_decl = D.CellDecl.make_trusted  # (fresh cell names: ``edges``' note)
        return [make_decl(c) for c in cells]

    def edges(self, site: int, span, existing=()) -> list:
        """The dependencies target ``site`` gets (none on a TaskId a user dependency among
        ``existing``, the target's own, names: already there)."""
        deps = []
        user = None  # (the TaskIds ``existing`` names, read at the first direct edge)
        # (made unchecked: a TaskId's binder name, a cell's name, a span; ``trusted_checked()``
        # checks them in the tests)
        make_cell_dep = D.CellDep.make_trusted
        for mode, source in self.plan.get(site, ()):
            if mode == "direct":
                tid = self.tid_of(source)
                if user is None:
                    user = {d.value.name for d in existing if d._production == "DepVar" and d.value._production == "Var"}
                if tid not in user:
                    deps.append(D.DerivedDep.make_trusted(D.Var.make_trusted(tid), span=span))
            elif mode == "cell":
                deps.append(make_cell_dep(self.cells[source], span=span))
            else:
                deps.append(make_cell_dep(self.joins[source], span=span))
        return deps

    def fences(self, stmt) -> list:
        """The host fences to place just before ``stmt`` (a host access, or a manual scope with
        host accesses inside)."""
        out = []
        for site in self.fences_at.get(id(stmt), ()):
            span = self.hazards.sites[site].task.span
            out.append(D.HostFence(
                tensor=D.Var(self.operands[site]), deps=self.edges(site, span), wait=site in self.waits, span=span))
        return out

    def rewrite_task(self, task) -> list:
        site = self.site_index.get(id(task))
        if site is None:
            return [task]
        deps = list(task.deps)
        deps += self.edges(site, task.span, task.deps)
        tid = task.tid
        if tid is None and site in self.tids:
            tid = D.Binder.make_trusted(self.tids[site], TID_TYPE, span=task.span)  # (a fresh name: ``edges``' note)
        out = [_with_tid_deps(task, tid, deps)] if (tid is not task.tid or len(deps) != len(task.deps)) else [task]
        # (the nodes after the task made unchecked, as ``edges``': fresh and cell names, the task's TaskId)
        make_cell_set, make_var = D.CellSet.make_trusted, D.Var.make_trusted
        if site in self.cells and self.cells[site] not in self.reused_cells:
            out.append(make_cell_set(self.cells[site], make_var(tid.name), span=task.span))
        if site in self.joins and self.joins[site] not in self.reused_joins:
            barrier = self.fresh(f"{task.kernel}_done", "join")
            join = self.joins[site]
            out.append(
                D.Dummy.make_trusted(
                    D.Binder.make_trusted(barrier, TID_TYPE, span=task.span),
                    (D.CellDep.make_trusted(join), D.DerivedDep.make_trusted(make_var(tid.name))),
                    f"joins every run of {task.kernel} so far",
                    span=task.span,
                )
            )
            out.append(make_cell_set(join, make_var(barrier), span=task.span))
        return out


_TASK_FIELDS = attrgetter(*D.Task._fields)
_TID_AT, _DEPS_AT = D.Task._fields.index("tid"), D.Task._fields.index("deps")


def _with_tid_deps(task, tid, deps):
    """``task.replace(tid=tid, deps=deps)``, its fields read in one call, made unchecked: the
    others are the input task's, ``tid`` is its own or a checked Binder, and ``deps`` its own and
    those ``edges`` made (``trusted_checked()`` checks them in the tests)."""
    values = list(_TASK_FIELDS(task))
    values[_TID_AT], values[_DEPS_AT] = tid, tuple(deps)
    return type(task).make_trusted(*values, span=task.span)


def _existing_cells(func) -> tuple[dict[str, str], dict[str, str]]:
    """TaskId name -> the cell an earlier pass stores it in, and -> its join cell."""
    from .util import iter_stmts

    cells: dict[str, str] = {}
    joins: dict[str, str] = {}
    barriers: dict[str, str] = {}  # join barrier name -> the TaskId it joins
    for stmt in iter_stmts(func.body):
        if stmt._production == "Dummy" and len(stmt.deps) == 2 and stmt.deps[0]._production == "CellDep":
            joined = stmt.deps[1]
            if joined._production == "DerivedDep" and joined.value._production == "Var":
                barriers[stmt.var.name] = joined.value.name
        elif stmt._production == "CellSet" and stmt.value._production == "Var":
            if stmt.value.name in barriers:
                joins[barriers[stmt.value.name]] = stmt.cell
            else:
                cells[stmt.value.name] = stmt.cell
    return cells, joins


def _parallel_loops(body) -> set[int]:
    from .util import iter_stmts

    return {id(s) for s in iter_stmts(body) if s._production == "For" and s.kind is _PARALLEL}


def needed_edges(hazards: Hazards, keep) -> dict[int, dict[int, bool]]:
    """target site -> {source site: whether a pair stands for older runs of the source than its
    latest}, for the pairs ``keep(earlier, later)`` selects (every pair where ``keep`` is None)."""
    out: dict[int, dict[int, bool]] = {}
    for earlier, later in hazards.pairs:
        if keep is None or keep(earlier, later):
            sources = out.setdefault(later.site, {})
            sources[earlier.site] = sources.get(earlier.site, False) or earlier.stale
    return out


