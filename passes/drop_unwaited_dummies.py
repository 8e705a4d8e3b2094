"""drop_unwaited_dummies: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.rewrite import register

from .lean import LeanPass
from .cells import without_unread_cells
from . import remove_dead_values
from .util import iter_stmts, var_reads


@register
class DropUnwaitedDummies(LeanPass):
    """Drop the dummy barriers that no task, host fence or later barrier waits for.

    A dummy task carries no tensor: it orders nothing but the tasks that name its TaskId in
    their dependencies. One whose TaskId nothing live reads (``remove_dead_values``' liveness
    with barriers as values: a TaskId that only other dropped barriers, a dead carry or a dead
    array read is unread) is submitted for nothing, and goes, the user's ``task_dummy`` as well
    as a compiler barrier; so do the cells only dropped barriers read, and a task's TaskId
    binder that only dropped barriers read. Off with the option ``lean_edges=False``.
    Afterwards every dummy barrier's TaskId is read by something that has an effect; every
    order between tasks and host accesses is the same (the edges of a dropped barrier ended at
    it). ``remove_dead_values`` then removes the values only the dropped barriers read.
    """

    name = "drop_unwaited_dummies"
    source = DIRECTED
    target = DIRECTED

    def lean(self, program):
        func = program.orch
        stmts = list(iter_stmts(func.body))
        dummies = [s for s in stmts if s._production == "Dummy"]
        if not dummies:
            return program
        if waited_by_effects(stmts, dummies):
            return program  # every dummy is live: nothing to drop
        live, _ = remove_dead_values.RemoveDeadValues.liveness(func.body, dummies=True)
        self.dead = {s.var.name for s in dummies if s.var.name not in live}
        if not self.dead:
            return program
        before = var_reads(func.body)
        self.unbind = None
        body = without_unread_cells(self.visit_all(func.body))
        after = var_reads(body)
        # TaskId binders of tasks that only the dropped barriers read
        self.unbind = {name for name in before if not after.get(name)}
        body = self.visit_all(body)
        return self.build(program, orch=self.build(func, body=body))

    def Dummy(self, dummy):
        if self.unbind is None and dummy.var.name in self.dead:
            self.ctx.note("dropped-dummy", f"no task waits for the dummy task {dummy.var.name}: it goes", dummy.span)
            return []
        return dummy

    def Task(self, task):
        if self.unbind is not None and task.tid is not None and task.tid.name in self.unbind:
            return task.replace(tid=None)
        return task


def waited_by_effects(stmts, dummies) -> bool:
    """Whether every dummy of ``dummies`` is read directly by an effect among ``stmts``: a
    dependency of a task or a host fence, or the value a ``CellSet`` stores. Those are roots of
    ``remove_dead_values``' liveness (the names they read are live whatever else is), so every
    dummy is live then, and the pass has nothing to drop: the liveness need not be made."""
    read: set[str] = set()
    deferred: list = []  # (the dependencies that read more than one name: walked once, together)
    for s in stmts:
        kind = s._production
        if kind == "Task" or kind == "HostFence":
            for dep in s.deps:  # (the usual ones, a name or a cell, read without a walk)
                dep_kind = dep._production
                if (dep_kind == "DepVar" or dep_kind == "DerivedDep") and dep.value._production == "Var":
                    read.add(dep.value.name)
                elif dep_kind != "CellDep":  # (a cell's name is no name read)
                    deferred.append(dep)
        elif kind == "CellSet" and s.value._production == "Var":
            read.add(s.value.name)
    if deferred:
        read.update(var_reads(deferred))
    return all(d.var.name in read for d in dummies)
