"""drop_chained_join_barriers: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.rewrite import register

from .lean import LeanPass
from .cells import join_cells
from .runtime_order import runtime_order

D = DIRECTED


@register
class DropChainedJoinBarriers(LeanPass):
    """Store a task's latest TaskId in its join cell when the runtime chains the task's runs.

    A join cell holds a dummy barrier after every run of one task ``S`` (``barrier =
    task_dummy(deps=[join, tid]); join = barrier``), so that a later task can wait for all of
    them. When every run of ``S`` is ordered after its previous run anyway (by the runtime: ``S``
    looks up a tensor value that the previous run wrote, as war_loop_then_writer's readers, InOut
    writers of one tensor, do; or by an edge; ``runtime_order``), the latest run already comes
    after all of them:
    the barrier goes and the cell stores ``S``'s TaskId (``join = tid``), which makes it a
    latest-run cell. Afterwards no join barrier chains the runs of a task the runtime chains; a
    task that waited for the join waits for a run that every earlier run is ordered before.
    Off with the option ``lean_edges=False``.
    """

    name = "drop_chained_join_barriers"
    source = DIRECTED
    target = DIRECTED

    def lean(self, program):
        func = program.orch
        joins = join_cells(func)
        if not joins:
            return program
        order = runtime_order(program)
        if order is None:
            return program
        self.barriers: dict[int, str] = {}  # id(barrier dummy) -> the TaskId it joined
        self.cells: set[str] = set()
        for cell, joined in joins.items():
            tasks = {order.tid_task.get(tid) for _, tid in joined}
            if len(tasks) != 1 or None in tasks:
                continue
            (task,) = tasks
            if order.is_ordered(task, task):
                self.cells.add(cell)
                self.barriers.update((id(dummy), tid) for dummy, tid in joined)
        if not self.cells:
            return program
        self.stored: dict[str, str] = {}  # barrier name -> the TaskId now stored instead
        return self.visit(program)

    def Dummy(self, dummy):
        tid = self.barriers.get(id(dummy))
        if tid is None:
            return dummy
        self.stored[dummy.var.name] = tid
        self.ctx.note("dropped-barrier", "the runtime orders each run of the joined task after the previous one: "
                      "its join barrier goes", dummy.span)
        return []

    def CellSet(self, cell_set):
        if cell_set.cell not in self.cells or cell_set.value._production != "Var":
            return cell_set
        tid = self.stored.get(cell_set.value.name)
        return cell_set if tid is None else cell_set.replace(value=D.Var(tid, span=cell_set.value.span))
