"""drop_edges_after_first_run: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.terms import BinOp, CmpOp
from nanopass.rewrite import register

from .lean import LeanPass, compiler_edge
from .cells import MirroredCells, without_unread_cells
from .edge_census import body_has
from .runtime_order import gives_up, runtime_order
from .util import loop_counters, places

D = DIRECTED


@register
class DropEdgesAfterFirstRun(LeanPass):
    """Insert a compiler edge of a task in a loop only on its first run after the source's run.

    A task ``T`` in a loop that waits for the latest run of a task ``S`` outside that loop (a
    ``DerivedDep`` on ``S``'s TaskId, a ``CellDep`` on a cell storing only ``S``'s TaskId or on
    ``S``'s join cell) needs the edge only on its first run after ``S``'s latest run when every
    run of ``T`` is ordered after its previous run (``runtime_order``; scope_escape). The edge
    then goes through a cell of its own: ``c = tid`` wherever ``S``'s TaskId (or the cell's
    value) is stored, ``c = None`` after ``T``. Likewise an edge on a cell of several tasks'
    TaskIds (a chain of ``merge_cells_into_chains``) stored outside a loop around ``T``: ``c``
    mirrors every store. Every order stays, by induction on ``T``'s runs since the store: the
    first waits for it, each later one for the run before. User edges stay. Off with
    ``lean_edges=False``. Afterwards no compiler edge of a task in a loop on a task (a cell)
    outside it is inserted again on a run ordered after the previous run since the store. A host
    fence in a loop that its host access follows directly counts as chained: the access waits
    for it (gap 6 of docs/semantics.md). An edge of ``T`` on its own latest-run cell, where its
    lookups order each run but the first of a run of its innermost loop after the run before
    (``RuntimeOrder.later``), goes through a cell copied from that cell before the loop (``c =
    cell``, ``cells.copied_cell``) and cleared after ``T``. Where such an edge is implied in
    every run of ``T`` in which the counter of a loop around ``T``'s innermost loop has given
    values (``RuntimeOrder.implied_where``: ``if i > 0`` in the outer loop, say), its cell is
    cleared before the innermost loop when the counter has them: ``T``'s first run there needs
    no edge, and each later one comes after the run before. Every change is to a compiler edge of
    a task or host fence: where the body's census
    (``edge_census.body_has``: one walk, shared with the passes around this one that receive the
    same body) counts none, the program is returned at once.
    """

    name = "drop_edges_after_first_run"
    source = DIRECTED
    target = DIRECTED

    def lean(self, program):
        func = program.orch
        if not body_has(func.body, "compiler_edge"):
            return program  # every change routes a compiler edge of a task or host fence, and the census saw none
        if gives_up(program):  # (``runtime_order`` would give up whatever it tracks)
            return program
        looped = _tasks_in_loops(func.body)
        self.set_in: dict[str, list] = {}  # cell -> the loops around each of its sets
        for place in places(func.body, ("CellSet",)).values():
            self.set_in.setdefault(place.stmt.cell, []).append(place.loops)
        waiting = [t for t, _ in looped.values() if any(compiler_edge(d) for d in t.deps)]
        if not waiting:
            return program
        order = runtime_order(program, track=[t for t in waiting if t._production == "Task"])
        if order is None:
            return program
        self.cells = MirroredCells(func)
        self.own: dict[int, list] = {}  # id(T) -> (its own latest-run cell, the cell T waits on instead)
        self.clears: dict[int, list] = {}  # id(T) -> (a routed cell, a counter, the values it is cleared at)
        self.counters = None  # ``loop_counters`` of the body, and ``places`` of its tasks and loops (once asked)
        for task in waiting:
            if task._production == "Task":
                t = order.number[id(task)]
                if order.is_ordered(t, t):
                    self.plan(task, t, order, looped, f"task {task.kernel}")
                if order.later.get(t, 0) >> t & 1:
                    self.plan_own(task, t, order)
                if id(task) in self.cells.routed:
                    self.plan_clears(func, task, t, order)
            else:  # a host fence just before its access: each later run comes after that access
                self.plan(task, None, order, looped, "the host fence")
        if not self.cells.decls:
            return program
        self.entries: list[list] = []  # per loop being rewritten, innermost last: the copies before it
        body = without_unread_cells(tuple(self.cells.decls) + self.visit_all(func.body))
        return self.build(program, orch=self.build(func, body=body))

    def plan(self, task, t, order, looped, what: str) -> None:
        """A first-run cell for each compiler edge of ``task`` (number ``t``) on a task outside one
        of its loops, or on a cell of several tasks stored outside one of its loops."""
        loops = looped[id(task)][1]
        for k, dep in enumerate(task.deps):
            if not compiler_edge(dep):
                continue
            s = order.source_of(dep)
            if s is None:  # (a cell of several tasks' TaskIds: a loop around the task leaves out a set of it)
                if dep._production != "CellDep" or not any(loops - around for around in self.set_in.get(dep.cell, ())):
                    continue
                tid = getattr(task, "tid", None)  # (a host fence has none)
                if tid is not None and tid.name in order.cells.tids.get(dep.cell, ()):
                    continue  # (the cell holds the task's previous run on its later runs: a first-run cell would too)
            elif s == t or not (loops - _loops(looped, order.tasks[s])):
                continue
            source = order.tasks[s].kernel if s is not None else dep.cell.split("__")[0]
            self.cells.route(task, k, f"{source}_once", "once")
            self.ctx.note("first-run-edge", f"{what} waits for {source} on its first run after it is set "
                          "only: its later runs come after the run before", task.span)

    def plan_own(self, task, t: int, order) -> None:
        """For each dependency of ``task`` (number ``t``) on its own latest-run cell, where its
        lookups order every run after the first of each run of its innermost loop after its
        previous run: a cell copied from that cell before the loop and cleared after the task."""
        for k, dep in enumerate(task.deps):
            if dep._production == "CellDep" and order.cells.task.get(dep.cell) == t:
                cell = self.cells.route(task, k, f"{task.kernel}_entry", "entry", mirrored=False)
                self.own.setdefault(id(task), []).append((dep.cell, cell))
                self.ctx.note("first-run-edge", f"task {task.kernel} waits for its previous run on the first "
                              "iteration of its loop only: the runtime orders the later ones", task.span)

    def plan_clears(self, func, task, t: int, order) -> None:
        """For each dependency of ``task`` (number ``t``) routed through a cell of its own that
        is implied in every run of ``task`` in which the counter of a loop around its innermost
        loop has given values: that clear, before the innermost loop."""
        for k, cell in sorted(self.cells.routed[id(task)].items()):
            where = order.implied_where(t, k)
            if where is None or not isinstance(where[0], str):
                continue
            if self.counters is None:
                self.counters = (dict(loop_counters(func.body)), places(func.body, ("Task", "For", "While")))
            counters, where_of = self.counters
            if where[0] not in counters:
                continue
            loop = counters[where[0]][1]
            loops = where_of[id(task)].loops
            if loop not in loops or where_of[loop].loops == loops - {loop}:  # (the innermost: not before it)
                continue
            self.clears.setdefault(id(task), []).append((cell, counters[where[0]][0], where[1]))
            self.ctx.note("first-run-edge", f"task {task.kernel} needs its edge through {cell} nowhere where "
                          f"{where[0]} is {', '.join(map(str, where[1]))}: the cell is cleared there", task.span)

    def clear_where(self, cell: str, counter, values: tuple, span):
        """``if counter in values: cell = no task``."""
        cond = None
        for value in values:
            test = D.Cmp(CmpOp.eq, D.Var(counter.name), D.Int(value, counter.type.dtype))
            cond = test if cond is None else D.Bin(BinOp.or_, cond, test)
        return D.If(cond, tuple(self.cells.cleared([cell], span)), (), (), span=span)

    def For(self, loop):
        self.entries.append([])
        out = self.build(loop, body=self.visit_all(loop.body))
        copies = self.entries.pop()
        return copies + [out] if copies else out

    While = For

    def Task(self, task):
        cells = self.cells
        for own, cell in self.own.get(id(task), ()):
            self.entries[-1].append(D.CellSet(cell, D.Var(own, span=task.span), span=task.span))
        for cell, counter, values in self.clears.get(id(task), ()):
            self.entries[-1].append(self.clear_where(cell, counter, values, task.span))
        after = [s for _, c in sorted(cells.routed.get(id(task), {}).items()) for s in cells.cleared([c], task.span)]
        after += cells.sets(task)
        out = cells.waiting(task)
        return [out] + after if after else out

    HostFence = Task

    def CellSet(self, cell_set):
        return self.cells.mirrored(cell_set)


def _tasks_in_loops(body) -> dict:
    """id(statement) -> (the statement, the ids of the loops around it), for the tasks in a loop
    and the host fences in a loop that the host access of their tensor follows directly."""
    return {k: (p.stmt, p.loops) for k, p in places(body, ("Task", "HostFence")).items()
            if p.loops and (p.stmt._production == "Task" or (p.next is not None and _accesses(p.next, p.stmt.tensor)))}


def _accesses(stmt, tensor) -> bool:
    """``stmt`` is a host element access of ``tensor``."""
    if tensor._production != "Var":
        return False
    if stmt._production == "WriteTensor":
        target = stmt.tensor
    elif stmt._production == "Let" and stmt.value._production == "ReadTensor":
        target = stmt.value.tensor
    else:
        return False
    return target._production == "Var" and target.name == tensor.name


def _loops(looped: dict, task) -> frozenset:
    return looped.get(id(task), (None, frozenset()))[1]

