"""clear_cells_after_waiters: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.terms import DType
from nanopass.rewrite import register

from .lean import LeanPass, waiters_on_held_runs
from .cells import cell_readers, taken_names
from .runtime_order import runtime_order
from .util import FreshVersions, iter_stmts, places

D = DIRECTED
TID_TYPE = D.ScalarType(DType.TASK_ID)


@register
class ClearCellsAfterWaiters(LeanPass):
    """Clear a cell after a task that every later task waiting on the cell is ordered after.

    A task ``W`` that waits on a latest-run cell or a join cell (``cells``) of a task ``S``, or
    on the run such a cell holds through its TaskId (``lean.waiters_on_held_runs``), is ordered
    after every run of ``S`` the cell stands for. When every task that waits on the cell
    and may run after ``W`` (``W`` itself again, in a loop) is ordered after ``W``'s latest run
    (by the runtime or its edges, ``runtime_order``), the runs of ``S`` before ``W`` need no edge
    of theirs any more: the cell is cleared after ``W`` (``c = None``, a ``NoTask`` let), so a
    later waiter inserts no edge until ``S`` runs again, and a join's barriers start a new chain
    (one entry, not two). Every order stays: a later waiter waits for the runs of ``S`` since the
    clear through the cell and for the earlier ones through ``W``. Cells a host fence or a dummy
    other than the join's own barriers reads are left alone. Off with the option
    ``lean_edges=False``. Afterwards no task waits through a cell on a run of its source that a
    task it is ordered after has waited for since the cell was last cleared, where it waits for
    that task on every path.
    """

    name = "clear_cells_after_waiters"
    source = DIRECTED
    target = DIRECTED

    def lean(self, program):
        func = program.orch
        stmts = list(iter_stmts(func.body))
        waiters, others = cell_readers(stmts)
        if not waiters:
            return program
        for cell, direct in waiters_on_held_runs(func.body).items():
            if cell in waiters:
                waiters[cell] = waiters[cell] + direct
        order = runtime_order(program, track=[t for ts in waiters.values() for t in ts])
        if order is None:
            return program
        where = places(func.body, ("Task",))
        loops = {k: p.loops for k, p in where.items()}
        blocks = {k: p.block for k, p in where.items()}
        self.clear: dict[int, list[str]] = {}  # id(W) -> the cells cleared after it
        for cell, tasks in sorted(waiters.items()):
            if cell in others or (cell not in order.cells.task and cell not in order.joins):
                continue
            source = order.tasks[order.cells.task[cell] if cell in order.cells.task else order.joins[cell]]
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


def _may_follow(first, then, order, loops) -> bool:
    """A run of task ``then`` may come after a run of task ``first``."""
    return order.number[id(then)] > order.number[id(first)] or bool(loops[id(first)] & loops[id(then)])

