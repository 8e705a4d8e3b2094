"""drop_cells_implied_through_edges: directed -> directed."""

from __future__ import annotations

from nanopass.languages import DIRECTED
from nanopass.languages.statements import LOOPS
from nanopass.rewrite import register

from .cells import without_unread_cells
from .lean import LeanPass
from .loop_facts import evaluate_scalar
from .runtime_order import runtime_order
from .split_joins_by_iteration import counted_iterations
from .util import iter_stmts, static_trip_count

SPAN = 64  # a loop of more iterations counts only where the stores and the tasks it reads are in no branch
EVERY = "every iteration"  # (a cell's stores: in each iteration of its loop)


@register
class DropCellsImpliedThroughEdges(LeanPass):
    """Drop a task's dependency on a cell that holds a run of a loop task ``A`` where the task is
    ordered after the run of another task ``B`` that, in the same loop iteration, waits on that
    run of ``A`` through its TaskId.

    A cell ``c`` *stored once* is stored by one ``CellSet c = a`` (else only cleared: ``c = None``),
    ``a`` the TaskId of a task ``A`` in the same iteration of the innermost loop ``L`` around
    both, a loop whose iterations are known before it runs (``counted_iterations``), through
    branches alone: the cell of one iteration that ``split_joins_by_iteration`` or
    ``drop_latest_runs_from_joins`` makes of a join (``if i == k: c = a``), a latest-run cell (in
    a loop of more than ``SPAN`` iterations, only where no branch is around the store, nor
    around the task below: no counter value is tried, so the pass costs nothing per
    iteration). A
    task ``B`` in ``L``'s body (through branches alone) with the edge ``DerivedDep(a)`` runs after
    that run of ``A`` in its iteration, and is *certain* at a counter value where the conditions
    around it hold. A task ``W`` outside ``L`` that waits on ``c`` reads the run of ``A`` of an
    iteration that ended before it, and its dependency on ``c`` goes where it is ordered after
    the run of ``B`` of that iteration already:

    - ``W`` is ordered after every run of ``B`` so far (``RuntimeOrder.is_ordered_every``: by
      its lookups, through the TensorMap entries of ``B``'s chained writes, or its other edges),
      and ``B`` is certain at every counter value at which ``c`` may be stored (45065: a
      ``k_acc`` under ``if i > 0`` after each ``k_copy`` it waits on; the waiter after the loop
      looks up what the last ``k_acc`` wrote: the cells of iterations 1 and 2 go, that of
      iteration 0 stays);
    - or ``W`` waits on a cell ``d`` stored once, in ``L``, to ``B``'s TaskId, where both
      stores' conditions are decided at each counter value and the last value at which each is
      stored is the same (the two cells then hold the runs of one iteration of one run of
      ``L``), and every clear of ``d`` has a clear of ``c`` beside it (the same list, only cell
      stores and ``NoTask`` lets between: ``d`` holds none only where ``c`` holds none): the
      per-iteration cells of two joins where each run of one waits on the same iteration's run
      of the other (45158).

    The runs of ``B`` are ordered after those of ``A`` they wait on, so the relation is acyclic,
    and every dependency it drops at once keeps the order. Off with the option
    ``lean_edges=False``. Afterwards no task waits on a cell stored once of a loop around
    another task through which it is ordered after the run the cell holds, as above; every
    order between tasks is the same, and a cell no task or host fence reads any more goes with
    its stores (``without_unread_cells``).
    """

    name = "drop_cells_implied_through_edges"
    source = DIRECTED
    target = DIRECTED

    def lean(self, program):
        func = program.orch
        if not any(s._production == "CellDecl" for s in func.body):
            return program  # (the lean passes declare their cells first in the function's body: none)
        stmts = list(iter_stmts(func.body))
        held = {s.value.name for s in stmts if s._production == "CellSet" and s.value._production == "Var"}
        if not held or not any(s._production == "Task" and any(
                d._production == "DerivedDep" and d.value._production == "Var" and d.value.name in held for d in s.deps)
                for s in stmts):
            return program  # (no task waits through its TaskId on a run a cell holds: no rule applies)
        self.place: dict[int, tuple] = {}  # id(stmt) -> (innermost loop or None, conditions, loops around, list, index)
        self.lists: dict[int, object] = {}  # id(statement list) -> the list
        self.walk(func.body, None, (), frozenset())
        none_names = {s.var.name for s in stmts if s._production == "Let" and s.value._production == "NoTask"}
        tid_task = {s.tid.name: s for s in stmts if s._production == "Task" and s.tid is not None}
        stores: dict[str, list] = {}
        clears: dict[str, list] = {}
        other: set[str] = set()
        for s in stmts:
            if s._production != "CellSet":
                continue
            value = s.value.name if s.value._production == "Var" else None
            if value in tid_task:
                stores.setdefault(s.cell, []).append(s)
            elif value in none_names:
                clears.setdefault(s.cell, []).append(s)
            else:
                other.add(s.cell)
        once = {}  # cell -> (its store, the loop, {counter value: stored there (None: not known)})
        for cell, found in stores.items():
            if len(found) != 1 or cell in other:
                continue
            store = found[0]
            loop, conds, _, _, _ = self.place[id(store)]
            task = tid_task[store.value.name]
            if loop is None or self.place[id(task)][0] is not loop:
                continue
            trips = static_trip_count(loop)
            if trips is not None and trips > SPAN:
                if not conds:  # (stored in every iteration: no counter value need be tried)
                    once[cell] = (store, loop, EVERY)
                continue
            counted = counted_iterations(loop)
            if counted is None:
                continue
            binder, values = counted
            once[cell] = (store, loop, {k: decided(conds, {binder.name: k}) for k in values})
        if not once:
            return program
        followers: dict[str, list] = {}  # TaskId of A -> the tasks B of A's loop body with DerivedDep(a)
        for s in stmts:
            if s._production != "Task":
                continue
            for dep in s.deps:
                if dep._production == "DerivedDep" and dep.value._production == "Var" and dep.value.name in tid_task:
                    a = tid_task[dep.value.name]
                    if self.place[id(s)][0] is self.place[id(a)][0] is not None:
                        followers.setdefault(dep.value.name, []).append(s)
        drops: dict[int, set] = {}  # id(waiter) -> positions of its dependencies that go
        asks: list = []  # (waiter, position, the tasks B that may imply it through the model)
        for w in stmts:
            if w._production != "Task":
                continue
            cells = {dep.cell for dep in w.deps if dep._production == "CellDep"}
            for position, dep in enumerate(w.deps):
                if dep._production != "CellDep" or dep.cell not in once:
                    continue
                store, loop, stored = once[dep.cell]
                if id(loop) in self.place[id(w)][2]:
                    continue  # (a waiter in the loop may run between A and B)
                a = store.value.name
                certain = []
                for b in followers.get(a, ()):
                    if self.paired(b, dep.cell, cells, once, clears):
                        drops.setdefault(id(w), set()).add(position)
                        self.ctx.note("iteration-edge", f"{w.kernel} waits on cell {dep.cell} through a cell of"
                                      f" {b.kernel}, whose run there waits on it: the dependency goes", w.span)
                        break
                    if self.certain(b, loop, stored):
                        certain.append(b)
                else:
                    if certain:
                        asks.append((w, position, dep.cell, certain))
        if asks:
            order = runtime_order(program, track=tuple({id(b): b for _, _, _, bs in asks for b in bs}.values()))
            if order is not None:
                for w, position, cell, certain in asks:
                    n = order.number[id(w)]
                    b = next((b for b in certain if order.is_ordered_every(n, order.number[id(b)])), None)
                    if b is not None:
                        drops.setdefault(id(w), set()).add(position)
                        self.ctx.note("iteration-edge", f"{w.kernel} is ordered after every run of {b.kernel}, whose"
                                      f" run in each iteration that stores cell {cell} waits on it: the"
                                      " dependency goes", w.span)
        if not drops:
            return program
        self.drops = drops
        body = without_unread_cells(self.visit_all(func.body))
        return self.build(program, orch=self.build(func, body=body))

    def Task(self, task):
        gone = self.drops.get(id(task))
        if not gone:
            return task
        return task.replace(deps=[d for k, d in enumerate(task.deps) if k not in gone])

    def walk(self, stmts, loop, conds: tuple, loops: frozenset) -> None:
        """Record each statement's place: its innermost loop, the branch conditions around it in
        that loop's body ((condition, branch) pairs), the loops around it, its list and index."""
        self.lists[id(stmts)] = stmts
        for index, stmt in enumerate(stmts):
            self.place[id(stmt)] = (loop, conds, loops, id(stmts), index)
            kind = stmt._production
            if kind in LOOPS:
                self.walk(stmt.body, stmt, (), loops | {id(stmt)})
            elif kind == "If":
                self.walk(stmt.then, loop, conds + ((stmt.cond, True),), loops)
                self.walk(stmt.orelse, loop, conds + ((stmt.cond, False),), loops)
            elif kind in ("Scope", "CompilerScope"):
                self.walk(stmt.body, loop, conds, loops)

    def certain(self, b, loop, stored: dict) -> bool:
        """Whether ``b`` runs in every iteration of ``loop`` in which the cell may be stored
        (``stored``: counter value -> stored there), and the cell may be stored in one."""
        b_loop, conds, _, _, _ = self.place[id(b)]
        if b_loop is not loop:
            return False
        if stored is EVERY:
            return not conds
        binder, _ = counted_iterations(loop)
        maybe = [k for k, known in stored.items() if known is not False]
        return bool(maybe) and all(decided(conds, {binder.name: k}) is True for k in maybe)

    def paired(self, b, cell: str, cells: set, once: dict, clears: dict) -> bool:
        """Whether the waiter also waits on a cell stored once to ``b``'s TaskId in the same
        iteration of the same run of the loop as ``cell`` (the last counter value of each store
        is the same, both known at every value) that holds none only where ``cell`` holds none."""
        if b.tid is None:
            return False
        _, loop, stored = once[cell]
        for other in cells:
            if other == cell or other not in once:
                continue
            o_store, o_loop, o_stored = once[other]
            if o_loop is not loop or o_store.value.name != b.tid.name:
                continue
            if stored is EVERY or o_stored is EVERY:
                if stored is o_stored and all(self.cleared_beside(c, cell, clears) for c in clears.get(other, ())):
                    return True  # (both stored in every iteration: the last one's runs)
                continue
            if None in stored.values() or None in o_stored.values():
                continue
            last = [k for k, known in stored.items() if known]
            o_last = [k for k, known in o_stored.items() if known]
            if not last or not o_last or last[-1] != o_last[-1]:
                continue
            if all(self.cleared_beside(c, cell, clears) for c in clears.get(other, ())):
                return True
        return False

    def cleared_beside(self, clear, cell: str, clears: dict) -> bool:
        """Whether a clear of ``cell`` is in the list of ``clear`` with only cell stores and
        ``NoTask`` lets between them."""
        _, _, _, where, index = self.place[id(clear)]
        for c in clears.get(cell, ()):
            _, _, _, c_where, c_index = self.place[id(c)]
            if c_where == where and self.quiet(clear, min(index, c_index), max(index, c_index)):
                return True
        return False

    def quiet(self, clear, start: int, stop: int) -> bool:
        """Whether the statements strictly between ``start`` and ``stop`` in the list of
        ``clear`` are cell stores and ``NoTask`` lets."""
        stmts = self.lists[self.place[id(clear)][3]]
        return all(s._production == "CellSet" or (s._production == "Let" and s.value._production == "NoTask")
                   for s in stmts[start + 1:stop])


def decided(conds: tuple, values: dict) -> bool | None:
    """Whether the branch conditions ``conds`` ((condition, branch) pairs) all hold with
    ``values`` (False where one is decided against, None where one is not known)."""
    out = True
    for cond, branch in conds:
        value = evaluate_scalar(cond, values)
        if value is None:
            out = None
        elif bool(value) != branch:
            return False
    return out
