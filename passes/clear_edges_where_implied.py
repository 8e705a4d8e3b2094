"""clear_edges_where_implied: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.terms import DType
from nanopass.rewrite import register

from .lean import LeanPass, compiler_edge
from .cells import taken_names
from .runtime_order import gives_up, runtime_order
from .util import FreshVersions, iter_stmts, places

D = DIRECTED
TID_TYPE = D.ScalarType(DType.TASK_ID)


@register
class ClearEdgesWhereImplied(LeanPass):
    """Route a compiler edge that a task implies on some paths through a cell cleared after
    that task.

    A task or host fence ``T`` with a compiler edge on the latest run of a task ``U`` (a
    ``DerivedDep`` on ``U``'s TaskId, or a ``CellDep`` on a cell that stores only ``U``'s TaskId)
    that ``drop_implied_dependencies`` kept, because some path from ``U`` to ``T`` leaves it
    needed, inserts it on the other paths too, where a task ``X`` runs after ``U``, with every run
    of ``X`` ordered after the latest run of ``U`` and every run of ``T`` ordered after the latest
    run of ``X`` (by the runtime or their edges, ``runtime_order``; tests/test_lean_cleared_edges.py). Only
    an ``X`` that may run between them counts: after ``U`` and before ``T`` in program order, or
    after ``T`` in a loop around both that leads back to ``T`` with no run of ``U`` between. The
    edge then goes through a cell of its own: ``c = tid`` wherever ``U``'s TaskId (or the cell's
    value) is stored, ``c = None`` after each such ``X`` (a ``NoTask`` let), and ``T`` waits on
    ``c``. Every order stays: where no such ``X`` ran since ``U``'s latest run, the cell holds
    that run; else the latest such ``X`` ran after it, is ordered after it, and ``T`` is ordered
    after that ``X`` not through the edge on ``U`` (whose latest run was submitted before that
    ``X``), so through what stays (a fence left with no valid dependency is not submitted: the
    host access after it waits for what the fence's lookup would find). The cell costs nothing
    where cleared. User edges stay. Off with the option ``lean_edges=False``. Afterwards no
    compiler edge on a task's latest run is inserted on a path where a task that may run between
    them, which its waiter is ordered after, ran after that run and is ordered after it.
    """

    name = "clear_edges_where_implied"
    source = DIRECTED
    target = DIRECTED

    def lean(self, program):
        func = program.orch
        stmts = list(iter_stmts(func.body))
        waiters = [s for s in stmts if s._production in ("Task", "HostFence") and any(map(compiler_edge, s.deps))]
        if not waiters or gives_up(program):
            return program
        tasks = [s for s in stmts if s._production == "Task"]
        order = runtime_order(program, track=tasks)
        if order is None:
            return program
        self.pos = {id(s): i for i, s in enumerate(stmts)}
        self.loops = {k: p.loops for k, p in places(func.body, ("Task", "HostFence")).items()}
        self.names = FreshVersions(taken_names(func))
        self.waits: dict[int, dict[int, str]] = {}  # id(T) -> {dependency position: its cell}
        self.set_after: dict[str, list[str]] = {}  # TaskId binder -> cells set after its task
        self.mirror: dict[str, list[str]] = {}  # latest-run cell -> cells stored with it
        self.clear_after: dict[int, list[str]] = {}  # id(X) -> cells cleared after it
        self.decls = []
        for waiter in waiters:
            if waiter._production == "Task":
                t = order.number[id(waiter)]
                implied = order.implied.get(t, frozenset())
                after = order.ordered.get(t, 0) & ~(1 << t)
                what = f"task {waiter.kernel}"
            else:
                implied = order.fence_implied.get(id(waiter), frozenset())
                after = order.fence_ordered.get(id(waiter), 0)
                what = "the host fence"
            for k, dep in enumerate(waiter.deps):
                if k in implied or not compiler_edge(dep) or (
                        dep._production == "CellDep" and dep.cell not in order.cells.task):
                    continue
                u = order.source_of(dep)
                if u is None:
                    continue
                implying = [x for x in range(len(order.tasks)) if x != u and after >> x & 1
                            and order.is_ordered(x, u) and self.between(order.tasks[u], order.tasks[x], waiter)]
                if implying:
                    self.plan(waiter, k, dep, order.tasks[u], [order.tasks[x] for x in implying], what)
        if not self.decls:
            return program
        body = tuple(self.decls) + self.visit_all(func.body)
        return self.build(program, orch=self.build(func, body=body))

    def between(self, source, x, waiter) -> bool:
        """``x`` may run after the latest run of ``source`` and before ``waiter`` (so clearing
        after it can matter): it comes between them, or a loop around it and ``waiter`` takes
        it back to ``waiter`` with no run of ``source`` between."""
        pos, loops = self.pos, self.loops
        s, at, w = pos[id(source)], pos[id(x)], pos[id(waiter)]
        if s < at < w:
            return True
        return at > w and any(loop not in loops[id(source)] or w < s < at
                              for loop in loops[id(x)] & loops[id(waiter)])

    def plan(self, waiter, k: int, dep, source, implying: list, what: str) -> None:
        """``waiter``'s dependency ``k`` waits on a cell of its own: stored with ``source``'s
        TaskId, cleared after each task of ``implying``."""
        cell = self.names.fresh(f"{source.kernel}_unless_implied", "cell")
        self.decls.append(D.CellDecl(cell))
        self.waits.setdefault(id(waiter), {})[k] = cell
        if dep._production == "DerivedDep":
            self.set_after.setdefault(dep.value.name, []).append(cell)
        else:
            self.mirror.setdefault(dep.cell, []).append(cell)
        for x in implying:
            self.clear_after.setdefault(id(x), []).append(cell)
        self.ctx.note("cleared-edge", f"{what} waits for {source.kernel} through a cell cleared after "
                      f"{', '.join(x.kernel for x in implying)}, which imply it", waiter.span)

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

    def HostFence(self, fence):
        cells = self.waits.get(id(fence))
        if not cells:
            return fence
        return fence.replace(deps=[D.CellDep(cells[k], span=d.span) if k in cells else d
                                   for k, d in enumerate(fence.deps)])

    def CellSet(self, cell_set):
        cells = self.mirror.get(cell_set.cell)
        if not cells:
            return cell_set
        return [cell_set] + [cell_set.replace(cell=c) for c in cells]
