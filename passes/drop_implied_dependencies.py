"""drop_implied_dependencies: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.rewrite import Pass, register

from .cells import without_unread_cells
from .runtime_order import runtime_order
from .util import iter_stmts, var_reads

D = DIRECTED


@register
class DropImpliedDependencies(Pass):
    """Drop the compiler's dependency edges that the runtime or the task's other edges imply.

    A compiler edge on the latest run of a task ``S`` (a ``DerivedDep`` on ``S``'s TaskId, or a
    ``CellDep`` on a cell that stores only ``S``'s TaskId) goes when the task is ordered after
    that run anyway: by the TensorMap entries or the creator of a tensor it looks up, or through
    another of its edges on a task ordered after ``S`` (``runtime_order``, which says why this
    keeps every order). ping_pong's write-after-read edge on the previous step, whose output the
    step reads, is the runtime's own edge. User edges and edges on join cells stay. Cells no edge
    reads any more lose their declaration and stores (and so do join barriers only they held),
    and a TaskId binder this pass left unread goes. Off with the option ``lean_edges=False``.
    Afterwards no compiler edge on a task's latest run is implied in every run of the program
    point that inserts it; every order the edges made still holds.
    """

    name = "drop_implied_dependencies"
    source = DIRECTED
    target = DIRECTED

    def run(self, program):
        if not self.ctx.option("lean_edges", True):
            return program
        func = program.orch
        if not any(s._production == "Task" and any(_removable_kind(d) for d in s.deps) for s in iter_stmts(func.body)):
            return program
        order = runtime_order(program)
        if order is None:
            return program
        self.order = order
        self.dropped: set[str] = set()  # TaskId binders a dropped edge named
        self.unread: set[str] | None = None  # set: the second walk unbinds these TaskIds
        body = self.visit_all(func.body)
        if body is func.body:
            return program
        body = without_unread_cells(body)
        reads = var_reads(body)
        self.unread = {name for name in self.dropped if not reads.get(name)}
        if self.unread:
            body = self.visit_all(body)
        return self.build(program, orch=self.build(func, body=body))

    def Task(self, task):
        if self.unread is not None:
            return task.replace(tid=None) if task.tid is not None and task.tid.name in self.unread else task
        n = self.order.number.get(id(task))
        implied = self.order.implied.get(n, frozenset()) if n is not None else frozenset()
        deps = []
        for k, dep in enumerate(task.deps):
            if k in implied and self.removable(dep):
                source = self.order.tasks[self.order.source_of(dep)]
                why = "the runtime" if self.order.by_runtime(n, self.order.source_of(dep)) else "its other edges"
                self.ctx.note("dropped-edge", f"task {task.kernel} waits for {source.kernel} through {why}: "
                              "its compiler edge goes", task.span)
                if dep._production == "DerivedDep":
                    self.dropped.add(dep.value.name)
                else:
                    self.dropped.update(n for n in self.order.cells.tids.get(dep.cell, ()) if n is not None)
                continue
            deps.append(dep)
        return task if len(deps) == len(task.deps) else task.replace(deps=deps)

    def removable(self, dep) -> bool:
        if dep._production == "DerivedDep":
            return dep.value._production == "Var" and dep.value.name in self.order.tid_task
        return dep._production == "CellDep" and dep.cell in self.order.cells.task


def _removable_kind(dep) -> bool:
    return dep._production in ("DerivedDep", "CellDep")
