"""clear_cells_after_waiters: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.terms import DType
from nanopass.rewrite import register

from .lean import LeanPass, waiters_on_held_runs
from .cells import cell_readers, taken_names
from .edge_census import body_has
from .runtime_order import known_to_give_up, runtime_order
from .util import BODY_FIELDS, FreshVersions, iter_stmts, places

D = DIRECTED
TID_TYPE = D.ScalarType(DType.TASK_ID)


@register
class ClearCellsAfterWaiters(LeanPass):
    """Clear a cell after a task that every later task waiting on the cell is ordered after.

    A task ``W`` that waits on a latest-run cell or a join cell (``cells``) of a task ``S`` (or
    a cell that holds a run of ``S`` or none, ``cleared_cells``: a first-run cell), or
    on the run such a cell holds through its TaskId (``lean.waiters_on_held_runs``), or on a
    guard's copy of it (``guard_copies``: ``drop_implied_dependencies`` copies the cell, or no
    task where the runtime orders ``W`` after what it stands for), is ordered after every run of
    ``S`` the cell stands for. When every task that waits on the cell
    and may run after ``W`` (``W`` itself again, in a loop) is ordered after ``W``'s latest run
    (by the runtime or its edges, ``runtime_order``), the runs of ``S`` before ``W`` need no edge
    of theirs any more: the cell is cleared after ``W`` (``c = None``, a ``NoTask`` let), so a
    later waiter inserts no edge until ``S`` runs again, and a join's barriers start a new chain
    (one entry, not two). Every order stays: a later waiter waits for the runs of ``S`` since the
    clear through the cell and for the earlier ones through ``W``. Cells a host fence or a dummy
    other than the join's own barriers reads are left alone. Off with the option
    ``lean_edges=False``. Afterwards no task waits through a cell on a run of its source that a
    task it is ordered after has waited for since the cell was last cleared, where it waits for
    that task on every path. Every change clears a cell after a task that waits on it (a
    ``CellDep``): where the body's census
    (``edge_census.body_has``: one walk, shared with the passes around this one that receive the
    same body) finds no task with one, the program is returned at once.
    """

    name = "clear_cells_after_waiters"
    source = DIRECTED
    target = DIRECTED

    def lean(self, program):
        if known_to_give_up(program):  # (every change needs ``runtime_order``)
            return program
        func = program.orch
        if not body_has(func.body, "cell_waiting_task"):
            return program  # (no task has a CellDep: ``cell_readers`` below finds no waiter)
        stmts = list(iter_stmts(func.body))
        waiters, others = cell_readers(stmts)
        if not waiters:
            return program
        for cell, direct in waiters_on_held_runs(func.body).items():
            if cell in waiters:
                waiters[cell] = waiters[cell] + direct
        for cell, (guard, task) in guard_copies(func.body, waiters, others).items():
            others[cell] = [s for s in others[cell] if s is not guard]
            if not others[cell]:
                del others[cell]
            waiters[cell] = sorted(waiters.get(cell, []) + [task], key=stmts.index)
        order = runtime_order(program, track=[t for ts in waiters.values() for t in ts])
        if order is None:
            return program
        where = places(func.body, ("Task",))
        loops = {k: p.loops for k, p in where.items()}
        blocks = {k: p.block for k, p in where.items()}
        self.clear: dict[int, list[str]] = {}  # id(W) -> the cells cleared after it
        cleared = cleared_cells(func.body, order)
        for cell, tasks in sorted(waiters.items()):
            if cell in others or (cell not in order.cells.task and cell not in order.joins and cell not in cleared):
                continue
            source = order.tasks[order.cells.task[cell] if cell in order.cells.task
                                 else order.joins[cell] if cell in order.joins else cleared[cell]]
            for w in tasks:
                n = order.number[id(w)]
                later = [order.number[id(t)] for t in tasks
                         if (t is w and loops[id(w)]) or (t is not w and _may_follow(w, t, order, loops))]
                # (useless when this task is its only later waiter and the source runs in the same
                # block: between two of its runs, the source always runs again)
                useful = any(m != n for m in later) or blocks[id(w)] != blocks[id(source)]
                if later and useful and all(order.is_ordered(m, n) for m in later):
                    self.clear.setdefault(id(w), []).append(cell)
        if not self.clear:
            return program
        self.names = FreshVersions(taken_names(func))
        return self.build(program, orch=self.build(func, body=self.visit_all(func.body)))

    def Task(self, task):
        cells = self.clear.get(id(task))
        if not cells:
            return task
        out = [task]
        for cell in cells:
            none = self.names.fresh("no_task", "none")
            out += [D.Let(D.Binder(none, TID_TYPE, span=task.span), D.NoTask(), span=task.span),
                    D.CellSet(cell, D.Var(none), span=task.span)]
            self.ctx.note("cleared-cell", f"later waiters of {cell} are ordered after {task.kernel}: "
                          "the cell is cleared after it", task.span)
        return out


def cleared_cells(body, order) -> dict:
    """cell -> the number of the task ``S`` whose TaskId it stores, for each cell (no latest-run
    or join cell) whose every ``CellSet`` stores either ``S``'s TaskId binder or no task (a
    ``NoTask`` let's binder): a first-run cell of ``drop_edges_after_first_run``, a latest-run
    cell this pass or another cleared. Such a cell holds a run of ``S`` or none, and clearing it
    after a waiter keeps every order as it does a latest-run cell's (the later waiters, ordered
    after ``W``, are ordered after what it held at ``W``)."""
    nones = {s.var.name for s in iter_stmts(body) if s._production == "Let" and s.value._production == "NoTask"}
    out = {}
    for cell, names in order.cells.tids.items():
        if cell in order.cells.task or cell in order.joins or None in names:
            continue
        tasks = {order.tid_task.get(name) for name in names if name not in nones}
        if len(tasks) == 1 and None not in tasks:
            out[cell] = next(iter(tasks))
    return out


def _may_follow(first, then, order, loops) -> bool:
    """A run of task ``then`` may come after a run of task ``first``."""
    return order.number[id(then)] > order.number[id(first)] or bool(loops[id(first)] & loops[id(then)])


def guard_copies(body, waiters: dict, others: dict) -> dict:
    """cell ``C`` -> (the ``CellSet`` that copies it, the task ``W``) for each guard of
    ``drop_implied_dependencies`` on ``C``: an ``if`` right before ``W`` each branch of which sets
    the guard's cell ``G`` alone, to no task (there the runtime orders ``W`` after what ``C``
    stands for) or to ``C``, where ``W`` alone reads ``G``, waiting on it. ``W`` is then ordered
    after what ``C`` stands for either way: a waiter of ``C``. Only a cell with one such copy and
    no other reader than its waiters and that copy."""
    found: dict[str, tuple] = {}
    counted: dict[str, int] = {}

    def block(stmts) -> None:
        for i, stmt in enumerate(stmts):
            kind = stmt._production
            if kind == "If" and i + 1 < len(stmts) and stmts[i + 1]._production == "Task":
                guard = _guard(stmt, stmts[i + 1], waiters, others)
                if guard is not None:
                    cell, copy = guard
                    counted[cell] = counted.get(cell, 0) + 1
                    found[cell] = (copy, stmts[i + 1])
            for field in BODY_FIELDS.get(kind, ()):
                block(getattr(stmt, field))

    block(body)
    return {cell: got for cell, got in found.items() if counted[cell] == 1 and len(others.get(cell, ())) == 1}


def _guard(branch, task, waiters: dict, others: dict):
    """(``C``, the copy) of a guard ``if`` before ``task`` (``guard_copies``), or None."""
    sets = []
    for arm in (branch.then, branch.orelse):
        stores = [s for s in arm if s._production == "CellSet"]
        lets = [s for s in arm if s._production == "Let"]
        if len(stores) != 1 or len(stores) + len(lets) != len(arm) or any(
                s.value._production != "NoTask" for s in lets):
            return None
        sets.append((stores[0], {s.var.name for s in lets}))
    if sets[0][0].cell != sets[1][0].cell or branch.results:
        return None
    guard = sets[0][0].cell
    copies = [(store, store.value.name) for store, nones in sets
              if store.value._production == "Var" and store.value.name not in nones]
    if len(copies) != 1 or waiters.get(guard) != [task] or guard in others:
        return None
    if not any(d._production == "CellDep" and d.cell == guard for d in task.deps):
        return None
    copy, cell = copies[0]
    return (cell, copy) if any(copy is s for s in others.get(cell, ())) else None

