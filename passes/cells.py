"""Compiler TaskId cells in the directed language: what each holds, and removing unread ones.

A *latest-run cell* is one whose every ``CellSet`` stores the TaskId binder of one task: it holds
that task's latest run (or invalid). A *join cell* is set to a dummy barrier whose dependencies
are the join cell itself and one task's TaskId (``dep_edges.EdgeWriter``): it holds a barrier
after every run of that task. A *copy* ``CellSet(c, Var(d))``, ``d`` a cell (``copied_cell``),
stores the TaskId ``d`` holds then: it reads ``d`` as a waiter would, and makes ``c`` no
latest-run cell (``c`` keeps that run when ``d``'s task runs again).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from nanopass.languages import DIRECTED
from nanopass.languages.statements import kept, walk_of
from nanopass.languages.terms import DType

from .util import FreshVersions, iter_stmts, places, var_reads

D = DIRECTED
TID_TYPE = D.ScalarType(DType.TASK_ID)
# the statements of the directed language with dependencies (Task, Dummy, HostFence)
WITH_DEPS = frozenset(cls._production for cls in DIRECTED.classes("Stmt") if "deps" in dict(cls._child_fields))


@dataclass
class Cells:
    task: dict = field(default_factory=dict)  # latest-run cell -> the number of its task
    tids: dict = field(default_factory=dict)  # cell -> the TaskId binder names stored in it


def latest_run_cells(func, tid_task: dict) -> Cells:
    """The latest-run cells of ``func`` (``tid_task``: TaskId binder name -> task number). A cell
    set where its task's run may not be followed by the set (in another block than the task's:
    an ``if`` on the iteration, say) holds an older run after a later run: it is no latest-run
    cell."""
    out = Cells()
    sources: dict[str, set] = {}
    where = places(func.body, ("Task", "CellSet", "CellDecl"))
    blocks = {p.stmt.tid.name: p.block for p in where.values() if p.stmt._production == "Task" and p.stmt.tid is not None}
    cells = {p.stmt.cell for p in where.values() if p.stmt._production == "CellDecl"}
    for stmt in iter_stmts(func.body):
        if stmt._production == "CellSet":
            value = stmt.value
            name = value.name if value._production == "Var" and value.name not in cells else None
            out.tids.setdefault(stmt.cell, set()).add(name)
            task = tid_task.get(name) if name is not None else None
            if task is not None and blocks.get(name) != where[id(stmt)].block:
                task = None
            sources.setdefault(stmt.cell, set()).add(task)
    for cell, tasks in sources.items():
        if len(tasks) == 1 and None not in tasks:
            out.task[cell] = next(iter(tasks))
    return out


def join_cells(func) -> dict:
    """join cell -> (the dummy barrier statements chained in it, the TaskId binder name each joins).

    Asked of the same function by the lean passes in a row and by ``runtime_order``, each of which
    hands its input on when it changes nothing: the result is kept (``kept``), the callers' to read,
    not to change."""
    return kept(join_cells, (func,), lambda: _join_cells(func))


def _join_cells(func) -> dict:
    barriers = {}
    cell_sets = []  # (the stores, in program order, gathered in the same walk and read after it)
    for stmt in iter_stmts(func.body):
        kind = stmt._production
        if kind == "CellSet":
            cell_sets.append(stmt)
        elif (kind == "Dummy" and len(stmt.deps) == 2 and stmt.deps[0]._production == "CellDep"
                and stmt.deps[1]._production == "DerivedDep" and stmt.deps[1].value._production == "Var"):
            barriers[stmt.var.name] = stmt
    out: dict = {}
    plain: set = set()
    for stmt in cell_sets:
        name = stmt.value.name if stmt.value._production == "Var" else None
        dummy = barriers.get(name)
        if dummy is not None and dummy.deps[0].cell == stmt.cell:
            out.setdefault(stmt.cell, []).append((dummy, dummy.deps[1].value.name))
        else:
            plain.add(stmt.cell)
    return {cell: joined for cell, joined in out.items() if cell not in plain}



def taken_names(func, cells=None) -> set[str]:
    """The names a new binder or cell of ``func`` may not take: its parameters', its dynamic
    dimensions', every binder's under its body (the body's walk keeps them, ``Walk.binder_names``:
    the single-definition check made them for the stage before) and every cell's (``cells``, when
    the caller knows them: every cell a ``CellDecl`` or ``CellSet`` of the body names)."""
    names = {p.name for p in func.params} | {d.name for d in func.dyn_dims}
    names.update(walk_of(func.body).binder_names())
    if cells is None:
        names.update(s.cell for s in iter_stmts(func.body) if s._production in ("CellDecl", "CellSet"))
    else:
        names.update(cells)
    return names


class MirroredCells:
    """Compiler edges routed through cells of their own (``drop_edges_after_first_run``,
    ``clear_edges_where_implied``): dependency ``k`` of a waiter becomes a ``CellDep`` on a fresh
    cell, set wherever what the dependency named is: after the source's TaskId binder (a
    ``DerivedDep``), or with every ``CellSet`` of the cell it named (a ``CellDep``). The passes
    clear the cells where the edge is not needed."""

    def __init__(self, func):
        self.names = FreshVersions(taken_names(func))
        self.decls: list = []  # a CellDecl per routed dependency, for the top of the body
        self.routed: dict[int, dict[int, str]] = {}  # id(waiter) -> {dependency position: its cell}
        self.set_after: dict[str, list[str]] = {}  # TaskId binder -> cells set after its task
        self.mirror: dict[str, list[str]] = {}  # cell -> cells set with it

    def route(self, waiter, k: int, base: str, role: str, mirrored: bool = True) -> str:
        """A fresh cell ``base__role_vN`` that dependency ``k`` of ``waiter`` waits on instead
        (set by the caller alone where not ``mirrored``)."""
        dep = waiter.deps[k]
        cell = self.names.fresh(base, role)
        self.decls.append(D.CellDecl(cell))
        self.routed.setdefault(id(waiter), {})[k] = cell
        if mirrored and dep._production == "DerivedDep":
            self.set_after.setdefault(dep.value.name, []).append(cell)
        elif mirrored:
            self.mirror.setdefault(dep.cell, []).append(cell)
        return cell

    def waiting(self, stmt):
        """``stmt`` (a task or host fence) with its routed dependencies on their cells."""
        cells = self.routed.get(id(stmt))
        if not cells:
            return stmt
        return stmt.replace(deps=[D.CellDep(cells[k], span=d.span) if k in cells else d for k, d in enumerate(stmt.deps)])

    def sets(self, stmt) -> list:
        """The sets of the cells stored after ``stmt``'s TaskId binder."""
        tid = getattr(stmt, "tid", None)
        if tid is None:
            return []
        return [D.CellSet(c, D.Var(tid.name), span=stmt.span) for c in self.set_after.get(tid.name, ())]

    def cleared(self, cells, span) -> list:
        """A ``NoTask`` let and the sets of ``cells`` to it."""
        none = self.names.fresh("no_task", "none")
        return [D.Let(D.Binder(none, TID_TYPE, span=span), D.NoTask(), span=span)] + [
            D.CellSet(c, D.Var(none), span=span) for c in cells]

    def mirrored(self, cell_set):
        """``cell_set``, and after it the same set of each cell mirroring its cell."""
        cells = self.mirror.get(cell_set.cell)
        if not cells:
            return cell_set
        return [cell_set] + [cell_set.replace(cell=c) for c in cells]


def declared_cells(stmts) -> set[str]:
    """The cells ``stmts`` declare."""
    return {s.cell for s in stmts if s._production == "CellDecl"}


def copied_cell(stmt, cells) -> str | None:
    """The cell of ``cells`` whose TaskId ``stmt`` copies (``CellSet(c, Var(d))``, ``d`` in ``cells``), or None."""
    if stmt._production == "CellSet" and stmt.value._production == "Var" and stmt.value.name in cells:
        return stmt.value.name
    return None


def cell_readers(stmts) -> tuple[dict[str, list], dict[str, list]]:
    """(cell -> the tasks that wait on it, in program order; cell -> the other statements that
    read it, in program order: host fences, dummies other than a join barrier, whose first
    dependency of two or more is its join, and copies of it)."""
    waiters: dict[str, list] = {}
    others: dict[str, list] = {}
    cells = declared_cells(stmts)
    for s in stmts:
        if s._production not in WITH_DEPS:
            copied = copied_cell(s, cells)
            if copied is not None:
                others.setdefault(copied, []).append(s)
            continue
        for k, dep in enumerate(s.deps):
            if dep._production != "CellDep":
                continue
            if s._production == "Task":
                waiters.setdefault(dep.cell, []).append(s)
            elif not (s._production == "Dummy" and k == 0 and len(s.deps) > 1):
                others.setdefault(dep.cell, []).append(s)
    return waiters, others

def without_unread_cells(body) -> tuple:
    """``body`` without the cells no task or host fence reads: their ``CellDecl`` and ``CellSet`` go, and so do
    compiler barriers (dummies with a ``CellDep``) whose TaskId only such cells store, and cells only such
    barriers or the copies (``copied_cell``) in such cells read."""
    stmts = list(iter_stmts(body))
    declared = {s.cell for s in stmts if s._production in ("CellDecl", "CellSet")}
    copies = [(s.cell, copied) for s in stmts if (copied := copied_cell(s, declared)) is not None]
    barriers = {s.var.name: s for s in stmts
                if s._production == "Dummy" and any(d._production == "CellDep" for d in s.deps)}
    stored_in: dict[str, set] = {}  # barrier name -> the cells storing it
    for s in stmts:
        if s._production == "CellSet" and s.value._production == "Var" and s.value.name in barriers:
            stored_in.setdefault(s.value.name, set()).add(s.cell)
    other_reads = var_reads([s for s in stmts if s._production not in ("CellSet", "For", "While", "If", "Scope", "CompilerScope")])
    read_by_waiters = {d.cell for s in stmts if s._production in ("Task", "HostFence")
                       for d in s.deps if d._production == "CellDep"}
    live_cells = set(read_by_waiters)
    live_barriers = {b for b in barriers if other_reads.get(b)}
    while True:
        grown = False
        for name, barrier in barriers.items():
            if name not in live_barriers and stored_in.get(name, set()) & live_cells:
                live_barriers.add(name)
                grown = True
            if name in live_barriers:
                for d in barrier.deps:
                    if d._production == "CellDep" and d.cell not in live_cells:
                        live_cells.add(d.cell)
                        grown = True
        for cell, copied in copies:
            if cell in live_cells and copied not in live_cells:
                live_cells.add(copied)
                grown = True
        if not grown:
            break
    dead_cells = declared - live_cells
    dead_barriers = set(barriers) - live_barriers
    if not dead_cells and not dead_barriers:
        return body
    return _prune(body, dead_cells, dead_barriers)


def _prune(body, cells: set, barriers: set) -> tuple:
    out = []
    for stmt in body:
        kind = stmt._production
        if kind in ("CellDecl", "CellSet") and stmt.cell in cells:
            continue
        if kind == "Dummy" and stmt.var.name in barriers:
            continue
        if kind in ("For", "While", "Scope", "CompilerScope"):
            stmt = stmt.replace(body=_prune(stmt.body, cells, barriers))
        elif kind == "If":
            stmt = stmt.replace(then=_prune(stmt.then, cells, barriers), orelse=_prune(stmt.orelse, cells, barriers))
        out.append(stmt)
    return tuple(out)
