"""drop_latest_runs_from_joins: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.terms import DType
from nanopass.rewrite import register

from .lean import LeanPass
from .cells import cell_readers, join_cells, taken_names
from .runtime_order import gives_up, runtime_order
from .util import FreshVersions, iter_stmts, places, var_reads

D = DIRECTED
TID_TYPE = D.ScalarType(DType.TASK_ID)


@register
class DropLatestRunsFromJoins(LeanPass):
    """Leave a task's latest run out of its join cell when the runtime orders the waiters after it.

    A join cell ``J`` of a task ``S`` chains a barrier after every run of ``S``. When every task
    waiting on ``J`` is ordered after the latest run of ``S`` by the runtime (``runtime_order``),
    ``J`` need only hold the earlier runs: a latest-run cell ``c`` takes ``S``'s TaskId after
    ``S``, and ``J`` chains ``c`` just before ``S`` runs again (``b = task_dummy(deps=[J, c]); J =
    b``), one barrier fewer per chain. Both cells are cleared after a waiter that every later
    waiter is ordered after. Cells a host fence or another dummy reads are left alone. Off with
    the option ``lean_edges=False``. Afterwards no join holds a latest run its waiters are
    ordered after by the runtime; every order stays.
    """

    name = "drop_latest_runs_from_joins"
    source = DIRECTED
    target = DIRECTED

    def lean(self, program):
        func = program.orch
        joins = join_cells(func)
        if not joins or gives_up(program):  # (``runtime_order`` would give up whatever it tracks)
            return program
        stmts = list(iter_stmts(func.body))
        waiters, others = cell_readers(stmts)
        candidates = {cell: joined for cell, joined in joins.items()
                      if len(joined) == 1 and cell not in others and waiters.get(cell)}
        if not candidates:
            return program
        order = runtime_order(program, track=[t for cell in candidates for t in waiters[cell]])
        if order is None:
            return program
        where = places(func.body, ("Task",))
        reads = var_reads(func.body)
        self.names = FreshVersions(taken_names(func))
        self.lagged: dict[str, str] = {}  # join cell -> its latest-run cell
        self.barriers: dict[int, str] = {}  # id(the join's barrier) -> the join cell
        self.before: dict[str, str] = {}  # TaskId binder of the joined task -> the join cell
        self.clear: dict[int, list[str]] = {}  # id(waiter) -> the cells cleared after it
        for cell, [(barrier, tid)] in sorted(candidates.items()):
            source = order.joins.get(cell)
            if source is None or order.tasks[source].tid is None or order.tasks[source].tid.name != tid:
                continue
            if reads.get(barrier.var.name, 0) != 1:  # (its TaskId is read elsewhere than by the join)
                continue
            tasks = waiters[cell]
            if not all(order.by_runtime(order.number[id(w)], source) for w in tasks):
                continue
            latest = self.names.fresh(cell, "latest")
            self.lagged[cell] = latest
            self.barriers[id(barrier)] = cell
            self.before[tid] = cell
            for w in tasks:
                n = order.number[id(w)]
                later = [order.number[id(t)] for t in tasks
                         if (t is w and where[id(w)].loops) or (t is not w and _may_follow(w, t, order, where))]
                if later and all(order.is_ordered(m, n) for m in later):
                    self.clear.setdefault(id(w), []).append(cell)
        if not self.lagged:
            return program
        self.dropped: set[str] = set()  # the join barriers' binders
        return self.build(program, orch=self.build(func, body=self.visit_all(func.body)))

    def CellDecl(self, decl):
        latest = self.lagged.get(decl.cell)
        return [decl, D.CellDecl(latest, span=decl.span)] if latest is not None else decl

    def Dummy(self, dummy):
        cell = self.barriers.get(id(dummy))
        if cell is None:
            return dummy
        self.dropped.add(dummy.var.name)
        return []

    def CellSet(self, cell_set):
        if cell_set.cell in self.lagged and cell_set.value._production == "Var" and cell_set.value.name in self.dropped:
            return []
        return cell_set

    def Task(self, task):
        out = []
        cell = self.before.get(task.tid.name) if task.tid is not None else None
        if cell is not None:
            span = task.span
            barrier = self.names.fresh(cell, "older")
            out += [D.Dummy(D.Binder(barrier, TID_TYPE, span=span), [D.CellDep(cell), D.CellDep(self.lagged[cell])],
                            span=span),
                    D.CellSet(cell, D.Var(barrier), span=span)]
            self.ctx.note("lagged-join", f"the waiters of {task.kernel}'s join are ordered after its latest run by the "
                          "runtime: the join takes each run when the next one starts", span)
        out.append(task)
        if cell is not None:
            out.append(D.CellSet(self.lagged[cell], D.Var(task.tid.name), span=task.span))
        for cleared in self.clear.get(id(task), ()):
            none = self.names.fresh("no_task", "none")
            out += [D.Let(D.Binder(none, TID_TYPE, span=task.span), D.NoTask(), span=task.span),
                    D.CellSet(cleared, D.Var(none), span=task.span),
                    D.CellSet(self.lagged[cleared], D.Var(none), span=task.span)]
        return out if len(out) > 1 else task


def _may_follow(first, then, order, where) -> bool:
    """A run of task ``then`` may come after a run of task ``first``."""
    return order.number[id(then)] > order.number[id(first)] or bool(where[id(first)].loops & where[id(then)].loops)

