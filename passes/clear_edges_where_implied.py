"""clear_edges_where_implied: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.terms import DType
from nanopass.rewrite import register

from .lean import LeanPass
from .cells import taken_names
from .runtime_order import gives_up, runtime_order
from .util import FreshVersions, iter_stmts

D = DIRECTED
TID_TYPE = D.ScalarType(DType.TASK_ID)


@register
class ClearEdgesWhereImplied(LeanPass):
    """Route a compiler edge that a task between its ends implies on some paths through a cell
    cleared after that task.

    A task ``T`` with a compiler edge on the latest run of a task ``U`` (a ``DerivedDep`` on
    ``U``'s TaskId) that ``drop_implied_dependencies`` kept, because some path from ``U`` to ``T``
    leaves the edge needed, while on other paths a task ``X`` between them (in program order) runs
    after ``U``, with every run of ``X`` ordered after the latest run of ``U`` and every run of
    ``T`` ordered after the latest run of ``X`` (by the runtime or their edges,
    ``runtime_order``), inserts the edge on those other paths too (gen24105: ``t7 -> t9``, implied
    by the user's ``t8`` in one branch of an ``if`` only). The edge then goes through a cell of its
    own: ``c = tid`` after ``U``, ``c = None`` after each such ``X`` (a ``NoTask`` let), and ``T``
    waits on ``c``. Every order stays: where no such ``X`` ran since ``U``'s latest run, the cell
    holds that run; else the latest such ``X`` ran after it, is ordered after it, and ``T`` is
    ordered after that ``X`` not through the edge on ``U`` (whose latest run was submitted before
    that ``X``), so through what stays. The cell costs nothing where cleared. User edges stay.
    Off with the option ``lean_edges=False``. Afterwards no compiler edge on a task's latest run
    is inserted on a path where a task between its ends, which its waiter is ordered after, ran
    after that run and is ordered after it.
    """

    name = "clear_edges_where_implied"
    source = DIRECTED
    target = DIRECTED

    def lean(self, program):
        func = program.orch
        tasks = [s for s in iter_stmts(func.body) if s._production == "Task"]
        if not any(_compiler_edge(d) for t in tasks for d in t.deps):
            return program
        if gives_up(program):
            return program
        order = runtime_order(program, track=tasks)
        if order is None:
            return program
        self.names = FreshVersions(taken_names(func))
        self.waits: dict[int, dict[int, str]] = {}  # id(T) -> {dependency position: its cell}
        self.set_after: dict[str, list[str]] = {}  # TaskId binder -> cells set after its task
        self.clear_after: dict[int, list[str]] = {}  # id(X) -> cells cleared after it
        self.decls = []
        for task in tasks:
            t = order.number[id(task)]
            implied = order.implied.get(t, frozenset())
            for k, dep in enumerate(task.deps):
                if k in implied or not _compiler_edge(dep):
                    continue
                u = order.source_of(dep)
                if u is None or u >= t:
                    continue
                between = [x for x in range(u + 1, t) if order.is_ordered(x, u) and order.is_ordered(t, x)]
                if not between:
                    continue
                source = order.tasks[u].kernel
                cell = self.names.fresh(f"{source}_unless_implied", "cell")
                self.decls.append(D.CellDecl(cell))
                self.waits.setdefault(id(task), {})[k] = cell
                self.set_after.setdefault(dep.value.name, []).append(cell)
                for x in between:
                    self.clear_after.setdefault(id(order.tasks[x]), []).append(cell)
                self.ctx.note("cleared-edge", f"task {task.kernel} waits for {source} through a cell cleared "
                              f"after {', '.join(order.tasks[x].kernel for x in between)}, which imply it",
                              task.span)
        if not self.decls:
            return program
        body = tuple(self.decls) + self.visit_all(func.body)
        return self.build(program, orch=self.build(func, body=body))

    def Task(self, task):
        cells = self.waits.get(id(task), {})
        out = task
        if cells:
            deps = [D.CellDep(cells[k], span=d.span) if k in cells else d for k, d in enumerate(task.deps)]
            out = task.replace(deps=deps)
        after = []
        if task.tid is not None:
            after += [D.CellSet(c, D.Var(task.tid.name), span=task.span) for c in self.set_after.get(task.tid.name, ())]
        cleared = self.clear_after.get(id(task), ())
        if cleared:
            none = self.names.fresh("no_task", "none")
            after.append(D.Let(D.Binder(none, TID_TYPE, span=task.span), D.NoTask(), span=task.span))
            after += [D.CellSet(c, D.Var(none), span=task.span) for c in cleared]
        return [out] + after if after else out


def _compiler_edge(dep) -> bool:
    """A compiler edge on the latest run of the task that binds a TaskId."""
    return dep._production == "DerivedDep" and dep.value._production == "Var"
